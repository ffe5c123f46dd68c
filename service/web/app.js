// The campsolver web table: plain `fetch` of Connect JSON (POST /campsolver.v1.<Service>/<Method>, proto3 JSON in
// and out), so the page needs no build step and no file beyond this folder. Every rule lives on the server:
// NewGame and Play move the game on, Hint ranks the moves, the state's picture is the game's own SVG.
"use strict";

// Per game: its service, the players it seats, how a Hint request holds the state, where an alternative keeps
// the move that Play takes.
const GAMES = {
  // Happy Campers' LegalMoves lists single placements; a move holds them in `placements` (one a map drawn on).
  "happy-campers": { service: "HappyCampersService", players: [1, 6], def: 2, hintState: "game", altMove: "move", legalIn: "placements" },
  "deluxe-camping": { service: "DeluxeCampingService", players: [2, 4], def: 2, hintState: "state", altMove: "move" },
  // Campsite's LegalMoves lists card placements and tent squares, not whole plays: its moves come from Hint.
  "campsite": { service: "CampsiteService", players: [1, 6], def: 2, hintState: "game", altMove: "play", noLegal: true },
  "camper-tour": { service: "CamperTourService", players: [1, 4], def: 2, hintState: "state", altMove: "move" },
  "adventure-tours": { service: "AdventureToursService", players: [3, 6], def: 3, hintState: "state", altMove: "move" },
};
// A greedy bot asks for a hint with no time to search: the service answers its rule of thumb's move.
const GREEDY_SECONDS = 0.01;
// Seconds between two bot moves, so a person can follow them (0 with ?fast=1).
const BOT_PAUSE_MS = new URLSearchParams(location.search).has("fast") ? 0 : 300;

const $ = (id) => document.getElementById(id);

// One unary call over Connect JSON; rejects with an Error whose message is readable ("invalid_argument: ...").
async function rpc(service, method, body, timeoutSeconds = 60) {
  const response = await fetch(`/campsolver.v1.${service}/${method}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Connect-Protocol-Version": "1",
      "Connect-Timeout-Ms": String(Math.round(timeoutSeconds * 1000)),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { code: "unknown", message: text || response.statusText };
  }
  if (!response.ok) {
    const error = new Error(`${data.code || response.status}: ${data.message || response.statusText}`);
    error.code = data.code;
    throw error;
  }
  return data;
}

// What the page knows of the game in progress (window.table, read by the browser tests too).
const table = {
  game: null, seats: [], seed: 0, ply: 0, state: null, turn: null, busy: false, done: false,
  finalScores: null, winners: null, log: [], errors: [],
};
window.table = table;

function fillPlayers() {
  const spec = GAMES[$("game").value];
  const select = $("players");
  const keep = Number(select.value) || spec.def;
  select.innerHTML = "";
  for (let n = spec.players[0]; n <= spec.players[1]; n++) {
    select.add(new Option(String(n), String(n), false, n === Math.min(Math.max(keep, spec.players[0]), spec.players[1])));
  }
  fillSeats();
}

function fillSeats() {
  const holder = $("seats");
  const previous = [...holder.querySelectorAll("select")].map((s) => s.value);
  holder.innerHTML = "";
  for (let seat = 0; seat < Number($("players").value); seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat}`;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    for (const [value, text] of [["person", "person"], ["hint", "bot: hint"], ["greedy", "bot: greedy"]]) {
      select.add(new Option(text, value));
    }
    select.value = previous[seat] || (seat === 0 ? "person" : "hint");
    label.append(select);
    holder.append(label);
  }
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
  if (message) table.errors.push(message);
}

function setPicture(svg) {
  if (!svg) return;
  const board = $("board");
  const image = document.createElement("img");
  image.alt = `${table.game} board`;
  image.src = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  image.onload = () => URL.revokeObjectURL(image.src);
  board.replaceChildren(image);
}

function seatName(seat) {
  const kind = table.seats[seat];
  return `seat ${seat} (${kind === "person" ? "you" : kind === "hint" ? "hint bot" : "greedy bot"})`;
}

function showTurn() {
  const turn = table.turn || {};
  const scores = (turn.scores || []).map((s, i) => `${i}: ${s}`).join("  ");
  let text = turn.gameOver ? "Game over" : turn.chanceNext ? "Chance" : `${seatName(turn.toMove ?? 0)} to move`;
  if (turn.description) text += ` — ${turn.description}`;
  if (scores) text += ` · scores ${scores}`;
  $("turn").textContent = text;
  const personToMove = !turn.gameOver && !turn.chanceNext && table.seats[turn.toMove ?? 0] === "person";
  for (const id of ["hint", "legal", "play-json"]) $(id).disabled = !personToMove || table.busy;
  const final = $("final");
  final.hidden = !turn.gameOver;
  if (turn.gameOver) {
    const winners = (turn.winners || []).map((w) => seatName(w));
    final.textContent = `Final scores: ${(turn.scores || []).map((s, i) => `${seatName(i)} ${s}`).join(", ")}. `
      + (winners.length ? `Winner${winners.length > 1 ? "s (tie)" : ""}: ${winners.join(", ")}.` : "No winner.");
  }
}

function logLine(text) {
  const item = document.createElement("li");
  item.textContent = text;
  $("log").append(item);
  item.scrollIntoView({ block: "nearest" });
}

function clearHints() {
  $("hint-table").hidden = true;
  $("hint-table").tBodies[0].replaceChildren();
  $("hint-summary").textContent = "";
  $("legal-list").hidden = true;
  $("legal-list").replaceChildren();
}

function apply(response) {
  table.state = response.state;
  table.turn = response.turn || {};
  setPicture(response.pictureSvg);
  clearHints();
  if (table.turn.gameOver) {
    table.done = true;
    table.finalScores = table.turn.scores || [];
    table.winners = table.turn.winners || [];
  }
  showTurn();
  setTimeout(step, table.turn.toMove !== undefined && table.seats[table.turn.toMove] !== "person" ? BOT_PAUSE_MS : 0);
}

async function guarded(work) {
  if (table.busy) return;
  table.busy = true;
  showTurn();
  try {
    await work();
  } catch (error) {
    showError(error.message);
  } finally {
    table.busy = false;
    showTurn();
  }
}

async function newGame() {
  const game = $("game").value;
  table.game = game;
  table.seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  table.seed = Math.max(0, Math.floor(Number($("seed").value) || 0));
  Object.assign(table, { ply: 0, done: false, finalScores: null, winners: null, log: [], errors: [] });
  $("log").replaceChildren();
  showError("");
  await guarded(async () => {
    const response = await rpc(GAMES[game].service, "NewGame", {
      players: table.seats.length, seed: String(table.seed), wantPicture: true,
    });
    logLine(`new game, ${table.seats.length} players, seed ${table.seed}`);
    table.busy = false;
    apply(response);
  });
}

// The chance of the k-th Play of a game with seed s comes from seed s*1000+k: the same seed, the same game.
function playSeed() {
  return String(table.seed * 1000 + table.ply);
}

async function play(move, label, who) {
  const body = { state: table.state, seed: playSeed(), wantPicture: true };
  if (move) body.move = move;
  const response = await rpc(GAMES[table.game].service, "Play", body);
  table.log.push({ ply: table.ply, seat: who, move: move || null, label: label || null });
  table.ply += 1;
  if (move) logLine(`${who === null ? "" : `${seatName(who)}: `}${label || JSON.stringify(move)}`);
  showError("");
  table.busy = false;
  apply(response);
}

async function hint(seconds) {
  const spec = GAMES[table.game];
  const body = { [spec.hintState]: table.state, options: { timeLimitSeconds: seconds } };
  return rpc(spec.service, "Hint", body, seconds + 30);
}

function moveOf(alternative) {
  return alternative[GAMES[table.game].altMove];
}

function fmt(value, digits = 3) {
  return value === undefined || value === null ? "—" : Number(value).toFixed(digits).replace(/\.?0+$/, "") || "0";
}

function showHint(response, playable) {
  const body = $("hint-table").tBodies[0];
  body.replaceChildren();
  for (const alternative of response.alternatives || []) {
    const ranking = alternative.ranking || {};
    const row = body.insertRow();
    row.className = playable ? "playable" : "";
    row.dataset.rank = ranking.rank;
    const cells = [
      [ranking.rank, "num"], [ranking.label || JSON.stringify(moveOf(alternative)), ""],
      [fmt(ranking.value), "num"], [ranking.value === undefined ? "—" : fmt(ranking.standardError), "num"],
      [fmt(ranking.loss), "num"], [ranking.note || (ranking.sampled ? `${ranking.samples} samples` : ""), "note"],
    ];
    for (const [text, cls] of cells) {
      const cell = row.insertCell();
      const full = String(text ?? "");
      // Long notes are cut to a line; the whole note is the cell's tooltip.
      cell.textContent = cls === "note" && full.length > 90 ? `${full.slice(0, 88)}…` : full;
      if (cls === "note") cell.title = full;
      cell.className = cls;
    }
    if (playable) {
      row.title = "play this move";
      row.addEventListener("click", () => guarded(() => play(moveOf(alternative), ranking.label, table.turn.toMove ?? 0)));
    }
  }
  const stats = response.stats || {};
  const proof = (response.proof || "PROOF_STATUS_UNSPECIFIED").replace("PROOF_STATUS_", "").toLowerCase();
  $("hint-summary").textContent = `proof: ${proof === "unspecified" ? "none claimed" : proof}`
    + (stats.method ? ` · ${stats.method}` : "") + (stats.wallTimeSeconds ? ` · ${fmt(stats.wallTimeSeconds, 2)} s` : "")
    + (stats.fallback ? ` · ${stats.fallback}` : "");
  $("hint-table").hidden = false;
}

async function showLegal() {
  const moves = await legalMoves();
  const list = $("legal-list");
  list.replaceChildren();
  for (const move of moves) {
    const item = document.createElement("li");
    item.textContent = JSON.stringify(move);
    item.title = "play this move";
    item.addEventListener("click", () => guarded(() => play(move, null, table.turn.toMove ?? 0)));
    list.append(item);
  }
  list.hidden = false;
}

async function legalMoves() {
  const spec = GAMES[table.game];
  if (spec.noLegal) throw new Error("this game lists whole plays only in the hint: press Hint, or type a move");
  const response = await rpc(spec.service, "LegalMoves", { [spec.hintState]: table.state });
  const moves = response.moves || [];
  return spec.legalIn ? moves.map((move) => ({ [spec.legalIn]: [move] })) : moves;
}

async function botMove(seat) {
  const kind = table.seats[seat];
  let response;
  try {
    response = await hint(kind === "greedy" ? GREEDY_SECONDS : Number($("hint-seconds").value) || 0.5);
  } catch (error) {
    if (error.code !== "invalid_argument") throw error;
    // A position the hint does not rank (e.g. a setup step): the bot takes the first legal move, and says so.
    const [first] = await legalMoves();
    if (!first) throw error;
    await play(first, `${JSON.stringify(first)} (first legal move: ${error.message})`, seat);
    return;
  }
  const best = (response.alternatives || [])[0];
  if (!best) throw new Error(`the hint for ${seatName(seat)} listed no move`);
  await play(moveOf(best), best.ranking && best.ranking.label, seat);
}

function step() {
  if (table.busy || !table.turn || table.done) return;
  if (table.turn.chanceNext) {
    guarded(() => play(null, null, null));
    return;
  }
  const seat = table.turn.toMove ?? 0;
  if (table.seats[seat] !== "person") guarded(() => botMove(seat));
}

$("game").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("new-game").addEventListener("click", newGame);
$("hint").addEventListener("click", () => guarded(async () => {
  showHint(await hint(Number($("hint-seconds").value) || 0.5), true);
}));
$("legal").addEventListener("click", () => guarded(showLegal));
$("play-json").addEventListener("click", () => guarded(async () => {
  let move;
  try {
    move = JSON.parse($("move-json").value);
  } catch (error) {
    throw new Error(`the move is not JSON: ${error.message}`);
  }
  await play(move, null, table.turn.toMove ?? 0);
}));
fillPlayers();
