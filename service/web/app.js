// The campsolver web table. The server holds the game (service/table.py): this page asks for its seat's view
// (POST /table/new, GET /table/{id}), sends the person's moves (POST .../move), lets the bots move one at a time
// (POST .../step), asks for hints (POST .../hint) and, at the end, the review. It never sees another seat's
// hidden cards: the server does not send them. Plain fetch and DOM, no build step.
"use strict";

// Seats each game takes (fewest, most, default); the server checks them again.
const GAMES = {
  "happy-campers": [2, 6, 2],
  "deluxe-camping": [2, 4, 2],
  "campsite": [2, 6, 2],
  "camper-tour": [2, 4, 2],
  "adventure-tours": [3, 6, 3],
};
const LETTERS = "ABCDEF";
// Seconds between two bot moves, so a person can follow them (0 with ?fast=1).
const BOT_PAUSE_MS = new URLSearchParams(location.search).has("fast") ? 0 : 450;
// Seconds the whole review of a game may take (?review=S: another budget, e.g. for a quick test).
const REVIEW_SECONDS = Number(new URLSearchParams(location.search).get("review")) || 30;
// Hint rows shown before "show all".
const HINT_ROWS = 5;

const $ = (id) => document.getElementById(id);

// What the page holds (window.table; the browser tests read it): the last view, the selection in progress.
const table = {
  id: null, view: null, ply: 0, done: false, busy: false, errors: [], selection: [], chosen: null,
  stage: null, hint: null, hintAll: false, logAll: false, moves: [], review: null, requests: 0,
};
window.table = table;

async function api(method, path, body) {
  table.requests += 1;
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  let data;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(data.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
  if (message) table.errors.push(message);
}

async function guarded(work) {
  if (table.busy) return;
  table.busy = true;
  updateButtons();
  try {
    await work();
  } catch (error) {
    showError(error.message);
  } finally {
    table.busy = false;
    updateButtons();
  }
}

// --- setup -------------------------------------------------------------------------------------------------

function fillPlayers() {
  const [low, high, def] = GAMES[$("game").value];
  const select = $("players");
  const keep = Number(select.value) || def;
  select.replaceChildren();
  for (let n = low; n <= high; n++) {
    select.add(new Option(String(n), String(n), false, n === Math.min(Math.max(keep, low), high)));
  }
  fillSeatChoice();
}

function fillSeatChoice() {
  const select = $("seat");
  const keep = select.value || "0";
  select.replaceChildren();
  for (let seat = 0; seat < Number($("players").value); seat++) {
    select.add(new Option(LETTERS[seat], String(seat), false, String(seat) === keep));
  }
}

async function newGame() {
  const body = {
    game: $("game").value, players: Number($("players").value), seat: Number($("seat").value),
    bots: $("bots").value, botSeconds: Number($("bot-seconds").value) || 0.5,
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  showError("");
  Object.assign(table, { done: false, errors: [], review: null, hint: null });
  $("review").replaceChildren(reviewButton());
  $("position").hidden = true;
  await guarded(async () => {
    const view = await api("POST", "/table/new", body);
    table.id = view.table;
    show(view);
  });
}

// --- the view ----------------------------------------------------------------------------------------------

function show(view) {
  table.view = view;
  table.ply = view.ply;
  table.done = view.over;
  table.selection = [];
  table.chosen = null;
  table.stage = view.stage || null;
  table.moves = view.moves || [];
  if (!view.stage) clearHint();
  const status = $("status");
  status.textContent = view.status;
  status.className = view.over ? "over" : "";
  showSeats(view);
  showPictures($("pictures"), view.pictures, true);
  showLegend(view.legend);
  const facts = $("facts");
  facts.replaceChildren(...(view.facts || []).map((text) => element("li", text)));
  showLog(view.log);
  $("move-box").hidden = !view.yourTurn;
  $("hint-box").hidden = !view.yourTurn || Boolean(view.stage);
  $("task").textContent = view.yourTurn ? view.status.replace(/^Your turn \([A-F]\): /, "") : "";
  $("stage").hidden = !view.stage;
  if (view.stage) $("stage-text").textContent = `${view.stage.title} (first: ${view.stage.label})`;
  $("result").hidden = !view.over;
  if (view.over) showResult(view);
  refreshPicker();
  updateButtons();
  if (!view.over && !view.yourTurn) setTimeout(step, BOT_PAUSE_MS);
}

function element(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function showSeats(view) {
  const list = $("seats");
  list.replaceChildren();
  view.seats.forEach((seat, index) => {
    const item = element("li");
    item.classList.toggle("you", index === view.you);
    item.classList.toggle("to-move", seat.toMove);
    item.append(element("strong", `${seat.name} `), document.createTextNode(`(${seat.who})`));
    if (seat.score !== null && seat.score !== undefined) {
      item.append(document.createTextNode(" · "), element("span", `${seat.score} pts`, "score"));
    }
    if (seat.note) item.append(document.createTextNode(` · ${seat.note}`));
    list.append(item);
  });
}

function showPictures(holder, pictures, clickable) {
  holder.replaceChildren();
  for (const picture of pictures || []) {
    const figure = element("figure", undefined, "picture");
    figure.append(element("figcaption", picture.title));
    const box = document.createElement("div");
    box.innerHTML = picture.svg; // the server's own SVG for this seat
    figure.append(box);
    holder.append(figure);
  }
  if (!clickable) return;
  for (const hit of holder.querySelectorAll("[data-key]")) {
    hit.addEventListener("click", () => boardClick(hit.dataset.key.split(" ")));
    hit.addEventListener("mouseenter", () => hover(hit.dataset.key.split(" "), true));
    hit.addEventListener("mouseleave", () => hover([], false));
  }
}

function showLegend(entries) {
  const list = $("legend");
  list.replaceChildren();
  for (const entry of entries || []) {
    const item = element("li");
    const mark = document.createElement("span");
    mark.innerHTML = entry.swatch;
    item.append(mark, element("span", entry.text));
    list.append(item);
  }
  $("legend-box").hidden = !(entries && entries.length);
}

// The log's last lines (all of them on request): whole lines only, never a scrolled box that cuts one.
const LOG_LINES = 14;

function showLog(lines) {
  const list = $("log");
  const all = lines || [];
  const shown = table.logAll ? all : all.slice(-LOG_LINES);
  list.replaceChildren();
  for (const line of shown) {
    const item = element("li", line.text, line.kind);
    item.value = line.ply;
    if (line.private) {
      item.dataset.private = "1";
      item.title = "only you see this line";
    }
    list.append(item);
  }
  const more = $("log-more");
  more.hidden = all.length <= LOG_LINES;
  more.textContent = table.logAll ? "Show the last lines only" : `Show the whole log (${all.length} lines)`;
}

function showResult(view) {
  $("result-text").textContent = view.result.text;
  const body = $("final-scores").tBodies[0];
  body.replaceChildren();
  view.seats.forEach((seat, index) => {
    const row = body.insertRow();
    for (const text of [seat.name, seat.who, String(view.result.scores[index] ?? "")]) row.insertCell().textContent = text;
    if (view.result.winners.includes(seat.name)) row.classList.add("winner");
  });
  $("seed-note").textContent = view.seed !== undefined
    ? `Seed ${view.seed}: the same seed and the same moves replay this game.` : "";
}

// --- picking a move by clicks ------------------------------------------------------------------------------

function candidates(selection = table.selection) {
  if (table.chosen) return table.moves.filter((move) => move.id === table.chosen);
  return table.moves.filter((move) => selection.every((key) => move.keys.includes(key)));
}

function boardKeys() {
  const keys = new Set();
  for (const hit of $("pictures").querySelectorAll("[data-key]")) {
    for (const key of hit.dataset.key.split(" ")) keys.add(key);
  }
  return keys;
}

// A click on a board mark holding `keys`: the first key that narrows the moves still open is added; a key
// already chosen is taken back; a mark no open move uses starts the choice afresh from it.
function boardClick(keys) {
  if (!table.view || !table.view.yourTurn || table.busy) return;
  table.chosen = null;
  for (const key of keys) {
    if (table.selection.includes(key)) {
      table.selection = table.selection.filter((k) => k !== key);
      refreshPicker();
      return;
    }
  }
  const open = candidates();
  for (const key of keys) {
    const narrowed = open.filter((move) => move.keys.includes(key));
    if (narrowed.length && narrowed.length < open.length) {
      table.selection.push(key);
      return afterPick();
    }
  }
  if (keys.some((key) => open.length && open.every((move) => move.keys.includes(key)))) return afterPick();
  for (const key of keys) {
    if (table.moves.some((move) => move.keys.includes(key))) {
      table.selection = [key];
      return afterPick();
    }
  }
  showError("No move of yours uses that mark now.");
}

function chipClick(key) {
  boardClick([key]);
}

function afterPick() {
  showError("");
  refreshPicker();
  const open = candidates();
  if ($("quick").checked && open.length === 1 && open[0].final) guarded(() => playMove(open[0].id));
}

function hover(keys, entering) {
  const holder = $("pictures");
  for (const hit of holder.querySelectorAll(".hit.hover")) hit.classList.remove("hover");
  if (!entering || !table.view || !table.view.yourTurn) return;
  for (const key of keys) {
    const open = candidates(table.selection.includes(key) ? table.selection : [...table.selection, key]);
    if (open.length) {
      markCells(open[0].ghost, "hover");
      return;
    }
  }
}

function markCells(cells, cls, holder = $("pictures")) {
  for (const cell of cells || []) {
    for (const hit of holder.querySelectorAll(`[data-cell="${CSS.escape(cell)}"]`)) hit.classList.add(cls);
  }
}

function refreshPicker() {
  const holder = $("pictures");
  for (const hit of holder.querySelectorAll(".hit")) hit.classList.remove("can", "sel", "ghost", "hinted");
  const chips = $("chips");
  const choice = $("choice");
  chips.replaceChildren();
  choice.replaceChildren();
  if (!table.view || !table.view.yourTurn) return;
  const open = candidates();
  const onBoard = boardKeys();
  // Keys worth a click: those some but not all of the open moves carry (a key every open move has narrows nothing).
  const usable = new Set();
  for (const move of open) for (const key of move.keys) usable.add(key);
  for (const key of [...usable]) if (open.length > 1 && open.every((move) => move.keys.includes(key))) usable.delete(key);
  for (const hit of holder.querySelectorAll("[data-key]")) {
    const keys = hit.dataset.key.split(" ");
    if (keys.some((key) => table.selection.includes(key))) hit.classList.add("sel");
    else if (keys.some((key) => usable.has(key))) hit.classList.add("can");
  }
  // Chips: the keys of open moves that no board mark carries, in the moves' order.
  const labels = table.view.keyLabels || {};
  const seen = new Set();
  for (const move of table.moves) {
    for (const key of move.keys) {
      if (onBoard.has(key) || seen.has(key)) continue;
      if (!usable.has(key) && !table.selection.includes(key)) continue;
      seen.add(key);
      const button = element("button", labels[key] || key);
      button.type = "button";
      button.dataset.key = key;
      if (table.selection.includes(key)) button.classList.add("sel");
      button.addEventListener("click", () => chipClick(key));
      chips.append(button);
    }
  }
  if (open.length === 1) {
    const move = open[0];
    markCells(move.ghost, "ghost");
    const play = element("button", move.final ? `Play: ${move.label}` : `${move.label}: then pitch a tent`, "primary");
    play.id = "play-chosen";
    play.type = "button";
    play.addEventListener("click", () => guarded(() => (move.final ? playMove(move.id) : secondStage(move.id))));
    const clear = element("button", "Clear");
    clear.type = "button";
    clear.addEventListener("click", clearSelection);
    choice.append(play, document.createTextNode(" "), clear);
  } else if (open.length === 0) {
    choice.append(element("span", "No move matches; press Clear.", "count"));
    choice.append(clearButton());
  } else {
    const common = open.map((move) => new Set(move.ghost)).reduce((a, b) => new Set([...a].filter((x) => b.has(x))));
    markCells([...common], "ghost");
    choice.append(element("span", `${open.length} moves match: click the board or a choice to narrow them.`, "count"));
    if (open.length <= 8) {
      const list = element("div", undefined, "list");
      for (const move of open) {
        const button = element("button", move.label);
        button.type = "button";
        button.addEventListener("click", () => { table.chosen = move.id; afterPick(); });
        list.append(button);
      }
      choice.append(list);
    }
    if (table.selection.length) choice.append(clearButton());
  }
}

function clearButton() {
  const clear = element("button", "Clear");
  clear.type = "button";
  clear.addEventListener("click", clearSelection);
  return clear;
}

function clearSelection() {
  table.selection = [];
  table.chosen = null;
  refreshPicker();
}

async function playMove(moveId) {
  const view = await api("POST", `/table/${table.id}/move`, { ply: table.ply, moveId });
  showError("");
  show(view);
}

async function secondStage(moveId) {
  const view = await api("POST", `/table/${table.id}/options`, { ply: table.ply, moveId });
  show(view);
}

async function step() {
  if (!table.view || table.view.over || table.view.yourTurn || table.busy) {
    if (table.busy && table.view && !table.view.over && !table.view.yourTurn) setTimeout(step, 100);
    return;
  }
  await guarded(async () => {
    const view = await api("POST", `/table/${table.id}/step`, { ply: table.ply });
    show(view);
  });
}

function updateButtons() {
  const mine = Boolean(table.view && table.view.yourTurn) && !table.busy;
  for (const id of ["hint", "play-json", "stage-back"]) $(id).disabled = !mine;
  for (const button of document.querySelectorAll("#choice button, #chips button")) button.disabled = !mine;
  $("new-game").disabled = table.busy;
}

// --- hints ---------------------------------------------------------------------------------------------------

function clearHint() {
  table.hint = null;
  table.hintAll = false;
  $("hint-table").hidden = true;
  $("hint-table").tBodies[0].replaceChildren();
  $("hint-summary").textContent = "";
  $("hint-note").textContent = "";
  $("hint-more").hidden = true;
}

function fmt(value, digits = 3) {
  if (value === undefined || value === null) return "—";
  return Number(value).toFixed(digits).replace(/\.?0+$/, "") || "0";
}

async function askHint() {
  const seconds = Number($("hint-seconds").value) || 1;
  $("hint-summary").textContent = `thinking for ${seconds} s…`;
  const hint = await api("POST", `/table/${table.id}/hint`, { ply: table.ply, seconds });
  table.hint = hint;
  for (const row of hint.rows) {
    if (!table.moves.some((move) => move.id === row.moveId)) {
      table.moves.push({ id: row.moveId, label: row.label, keys: [], ghost: [], final: true });
    }
  }
  showHint();
}

// The hint as a compact table: the top rows (a run of tied values shown as one row with its size), the rest
// on request; the note every row shares said once under the table.
function showHint() {
  const hint = table.hint;
  if (!hint) return;
  const body = $("hint-table").tBodies[0];
  body.replaceChildren();
  const ties = new Map(hint.ties.map((group) => [group.first, group]));
  const rows = hint.rows;
  let shown = 0;
  let index = 0;
  while (index < rows.length && (table.hintAll || shown < HINT_ROWS)) {
    const group = ties.get(index);
    const row = rows[index];
    const tr = body.insertRow();
    tr.dataset.rank = String(row.rank);
    tr.dataset.moveId = row.moveId;
    const rank = group ? `${row.rank}=` : String(row.rank);
    tr.insertCell().textContent = rank;
    const label = tr.insertCell();
    label.append(document.createTextNode(row.label));
    if (group && !table.hintAll) {
      label.append(element("span", `tied with ${group.count - 1} more at ${fmt(group.value)} (show all to list them)`, "sub"));
    } else if (group) {
      label.append(element("span", "tied", "tie"));
    }
    if (row.note) label.append(element("span", row.note, "sub"));
    if (row.samples && row.se === undefined) label.append(element("span", `${row.samples} samples`, "sub"));
    tr.insertCell().textContent = fmt(row.value);
    tr.insertCell().textContent = row.se === undefined ? "—" : fmt(row.se);
    tr.insertCell().textContent = fmt(row.loss);
    for (const cell of [...tr.cells].slice(2)) cell.className = "num";
    tr.addEventListener("click", () => chooseHinted(row.moveId));
    shown += 1;
    index = group && !table.hintAll ? index + group.count : index + 1;
  }
  const more = $("hint-more");
  more.hidden = rows.length <= shown && !table.hintAll;
  more.textContent = table.hintAll ? "Show the top rows only" : `Show all ${rows.length} moves`;
  const summary = hint.summary;
  $("hint-summary").textContent = [
    summary.unit ? `value: ${summary.unit}` : "", `proof: ${summary.proof}`, summary.method,
    summary.seconds === null ? "" : summary.seconds < 0.01 ? "under 0.01 s" : `${fmt(summary.seconds, 2)} s`,
    summary.fallback,
  ].filter(Boolean).join(" · ");
  $("hint-note").textContent = summary.note;
  $("hint-table").hidden = false;
}

function chooseHinted(moveId) {
  table.chosen = moveId;
  table.selection = [];
  for (const tr of $("hint-table").tBodies[0].rows) tr.classList.toggle("chosen", tr.dataset.moveId === moveId);
  refreshPicker();
}

// --- the end: result and review ----------------------------------------------------------------------------

function reviewButton() {
  const button = element("button", "Review this game");
  button.id = "review-button";
  button.type = "button";
  button.addEventListener("click", () => guarded(askReview));
  return button;
}

async function askReview() {
  $("review").replaceChildren(element("p", `Reviewing every decision (up to ${REVIEW_SECONDS} s)…`, "muted"));
  try {
    table.review = await api("POST", `/table/${table.id}/review`, { seconds: REVIEW_SECONDS });
  } catch (error) {
    $("review").replaceChildren(element("p", `No review: ${error.message}`, "muted"), reviewButton());
    throw error;
  }
  showReview(table.review);
}

function showReview(review) {
  const holder = $("review");
  holder.replaceChildren();
  holder.append(element("p", `Each decision's loss against the hint's best, in ${review.unit}.`, "muted"));
  const totals = element("ul");
  totals.id = "review-totals";
  for (const player of review.players) {
    const item = element("li");
    item.dataset.seat = player.seat;
    item.dataset.totalLoss = String(player.totalLoss);
    item.dataset.accuracy = player.accuracy === undefined ? "" : String(player.accuracy);
    item.dataset.reviewed = String(player.reviewed);
    const who = player.player === table.view.you ? `${player.seat} (you)` : player.seat;
    const se = player.totalLossSe === undefined ? "" : ` ± ${fmt(player.totalLossSe)}`;
    const accuracy = player.accuracy === undefined ? "no accuracy (nothing reviewed)" : `accuracy ${fmt(player.accuracy, 1)}%`;
    item.append(element("strong", `${who}: `), document.createTextNode(
      `total loss ${fmt(player.totalLoss)}${se}, ${accuracy}; ${player.inaccuracies} inaccuracies, `
      + `${player.mistakes} mistakes, ${player.blunders} blunders; ${player.reviewed} of ${player.decisions} `
      + "decisions reviewed"));
    totals.append(item);
  }
  holder.append(totals);
  if (!review.complete) {
    holder.append(element("p", `${review.notReviewed} decisions were not reviewed: the review's time ran out.`, "muted"));
  }
  const mine = review.players.find((player) => player.player === table.view.you);
  if (mine && mine.costliest && mine.costliest.length) {
    holder.append(element("h2", "Your costliest decisions"));
    holder.append(decisionList(mine.costliest, "costliest"));
  } else {
    holder.append(element("p", "None of your reviewed decisions lost anything against the hint's best.", "muted"));
  }
  const all = element("details");
  all.append(element("summary", `All your decisions (${review.decisions.length})`));
  all.append(decisionList(review.decisions, "my-decisions"));
  holder.append(all);
  if (review.note) holder.append(element("p", review.note, "muted"));
}

function decisionList(decisions, id) {
  const list = element("ol");
  list.id = id;
  for (const decision of decisions) {
    const item = element("li");
    const loss = decision.loss === undefined ? decision.status : `loss ${fmt(decision.loss)}`;
    const mark = decision.mark && decision.mark !== "best" ? `, ${decision.mark}` : "";
    const button = element("button", `step ${decision.ply + 1}: ${decision.played} (${loss}${mark}; best: ${decision.best})`);
    button.type = "button";
    button.className = `mark-${decision.mark}`;
    button.addEventListener("click", () => guarded(() => openPosition(decision)));
    item.append(button);
    list.append(item);
  }
  return list;
}

async function openPosition(decision) {
  const position = await api("GET", `/table/${table.id}/position/${decision.ply}`);
  $("position").hidden = false;
  $("position-title").textContent = `Step ${decision.ply + 1} of the game, before your move`;
  $("position-text").textContent = `You played ${position.played} (yellow); the hint's best: `
    + `${position.best || decision.best} (green); loss ${fmt(decision.loss)}${decision.mark ? `, ${decision.mark}` : ""}.`;
  showPictures($("position-pictures"), position.pictures, false);
  markCells(position.playedGhost, "sel", $("position-pictures"));
  markCells(position.bestGhost, "ghost", $("position-pictures"));
  $("position").scrollIntoView({ block: "nearest" });
}

// --- wiring ----------------------------------------------------------------------------------------------------

$("game").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeatChoice);
$("new-game").addEventListener("click", newGame);
$("hint").addEventListener("click", () => guarded(askHint));
$("hint-more").addEventListener("click", () => { table.hintAll = !table.hintAll; showHint(); });
$("stage-back").addEventListener("click", () => guarded(async () => show(await api("GET", `/table/${table.id}`))));
$("log-more").addEventListener("click", () => { table.logAll = !table.logAll; showLog(table.view && table.view.log); });
$("position-close").addEventListener("click", () => { $("position").hidden = true; });
$("play-json").addEventListener("click", () => guarded(async () => {
  const text = $("move-json").value;
  try {
    JSON.parse(text);
  } catch (error) {
    throw new Error(`the move is not JSON: ${error.message}`);
  }
  const view = await api("POST", `/table/${table.id}/move`, { ply: table.ply, move: text });
  showError("");
  show(view);
}));
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && event.target === document.body && $("play-chosen")) $("play-chosen").click();
  if (event.key === "Escape") clearSelection();
});
// On a narrow screen the legend starts folded (it is long); the board and the move box come first.
if (window.innerWidth < 700) $("legend-box").open = false;
fillPlayers();
