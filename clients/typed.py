"""Typed per-game clients, sync and asyncio: one method per RPC with its own request and response types.

Written out from the service definitions (same names, same order); `tests/test_client.py` checks every method
against the generated descriptors, so a drift fails the suite. Use them through `CampsolverClient` /
`AsyncCampsolverClient` (`client.happy_campers.hint(request)`).
"""

from __future__ import annotations

from campsolver.clients.base import DEFAULT_TIMEOUT_S, AsyncGameClient, GameClient

from campsolver.v1 import (
    adventure_tours_pb2,
    adventure_tours_pb2_grpc,
    camper_tour_pb2,
    camper_tour_pb2_grpc,
    campsite_pb2,
    campsite_pb2_grpc,
    deluxe_camping_pb2,
    deluxe_camping_pb2_grpc,
    happy_campers_pb2,
    happy_campers_pb2_grpc,
)


class HappyCampersClient(GameClient):
    """HappyCampers RPCs (blocking)."""

    GAME = "happy-campers"
    STUB = happy_campers_pb2_grpc.HappyCampersServiceStub

    def hint(
        self, request: happy_campers_pb2.HappyCampersServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return self._invoke("Hint", request, timeout)

    def max_score(
        self,
        request: happy_campers_pb2.HappyCampersServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return self._invoke("MaxScore", request, timeout)

    def generate_puzzle(
        self,
        request: happy_campers_pb2.HappyCampersServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return self._invoke("GeneratePuzzle", request, timeout)

    def score(
        self, request: happy_campers_pb2.HappyCampersServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceScoreResponse:
        """Score a state by the rules model."""
        return self._invoke("Score", request, timeout)

    def legal_moves(
        self,
        request: happy_campers_pb2.HappyCampersServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceLegalMovesResponse:
        """The legal moves of a state."""
        return self._invoke("LegalMoves", request, timeout)

    def new_game(
        self, request: happy_campers_pb2.HappyCampersServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return self._invoke("NewGame", request, timeout)

    def play(
        self, request: happy_campers_pb2.HappyCampersServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return self._invoke("Play", request, timeout)

    def review(
        self, request: happy_campers_pb2.HappyCampersServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return self._invoke("Review", request, timeout)


class DeluxeCampingClient(GameClient):
    """DeluxeCamping RPCs (blocking)."""

    GAME = "deluxe-camping"
    STUB = deluxe_camping_pb2_grpc.DeluxeCampingServiceStub

    def hint(
        self, request: deluxe_camping_pb2.DeluxeCampingServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return self._invoke("Hint", request, timeout)

    def max_score(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return self._invoke("MaxScore", request, timeout)

    def generate_puzzle(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return self._invoke("GeneratePuzzle", request, timeout)

    def score(
        self, request: deluxe_camping_pb2.DeluxeCampingServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServiceScoreResponse:
        """Score a state by the rules model."""
        return self._invoke("Score", request, timeout)

    def legal_moves(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceLegalMovesResponse:
        """The legal moves of a state."""
        return self._invoke("LegalMoves", request, timeout)

    def new_game(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceNewGameRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return self._invoke("NewGame", request, timeout)

    def play(
        self, request: deluxe_camping_pb2.DeluxeCampingServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return self._invoke("Play", request, timeout)

    def review(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceReviewRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return self._invoke("Review", request, timeout)


class CampsiteClient(GameClient):
    """Campsite RPCs (blocking)."""

    GAME = "campsite"
    STUB = campsite_pb2_grpc.CampsiteServiceStub

    def hint(
        self, request: campsite_pb2.CampsiteServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return self._invoke("Hint", request, timeout)

    def max_score(
        self, request: campsite_pb2.CampsiteServiceMaxScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return self._invoke("MaxScore", request, timeout)

    def generate_puzzle(
        self, request: campsite_pb2.CampsiteServiceGeneratePuzzleRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return self._invoke("GeneratePuzzle", request, timeout)

    def score(
        self, request: campsite_pb2.CampsiteServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceScoreResponse:
        """Score a state by the rules model."""
        return self._invoke("Score", request, timeout)

    def legal_moves(
        self, request: campsite_pb2.CampsiteServiceLegalMovesRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceLegalMovesResponse:
        """The legal moves of a state."""
        return self._invoke("LegalMoves", request, timeout)

    def new_game(
        self, request: campsite_pb2.CampsiteServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return self._invoke("NewGame", request, timeout)

    def play(
        self, request: campsite_pb2.CampsiteServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return self._invoke("Play", request, timeout)

    def review(
        self, request: campsite_pb2.CampsiteServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return self._invoke("Review", request, timeout)


class CamperTourClient(GameClient):
    """CamperTour RPCs (blocking)."""

    GAME = "camper-tour"
    STUB = camper_tour_pb2_grpc.CamperTourServiceStub

    def hint(
        self, request: camper_tour_pb2.CamperTourServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return self._invoke("Hint", request, timeout)

    def max_score(
        self, request: camper_tour_pb2.CamperTourServiceMaxScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return self._invoke("MaxScore", request, timeout)

    def generate_puzzle(
        self,
        request: camper_tour_pb2.CamperTourServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> camper_tour_pb2.CamperTourServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return self._invoke("GeneratePuzzle", request, timeout)

    def score(
        self, request: camper_tour_pb2.CamperTourServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceScoreResponse:
        """Score a state by the rules model."""
        return self._invoke("Score", request, timeout)

    def legal_moves(
        self, request: camper_tour_pb2.CamperTourServiceLegalMovesRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceLegalMovesResponse:
        """The legal moves of a state."""
        return self._invoke("LegalMoves", request, timeout)

    def new_game(
        self, request: camper_tour_pb2.CamperTourServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return self._invoke("NewGame", request, timeout)

    def play(
        self, request: camper_tour_pb2.CamperTourServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return self._invoke("Play", request, timeout)

    def review(
        self, request: camper_tour_pb2.CamperTourServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return self._invoke("Review", request, timeout)


class AdventureToursClient(GameClient):
    """AdventureTours RPCs (blocking)."""

    GAME = "adventure-tours"
    STUB = adventure_tours_pb2_grpc.AdventureToursServiceStub

    def hint(
        self,
        request: adventure_tours_pb2.AdventureToursServiceHintRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return self._invoke("Hint", request, timeout)

    def max_score(
        self,
        request: adventure_tours_pb2.AdventureToursServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return self._invoke("MaxScore", request, timeout)

    def generate_puzzle(
        self,
        request: adventure_tours_pb2.AdventureToursServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return self._invoke("GeneratePuzzle", request, timeout)

    def score(
        self,
        request: adventure_tours_pb2.AdventureToursServiceScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceScoreResponse:
        """Score a state by the rules model."""
        return self._invoke("Score", request, timeout)

    def legal_moves(
        self,
        request: adventure_tours_pb2.AdventureToursServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceLegalMovesResponse:
        """The legal moves of a state."""
        return self._invoke("LegalMoves", request, timeout)

    def new_game(
        self,
        request: adventure_tours_pb2.AdventureToursServiceNewGameRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return self._invoke("NewGame", request, timeout)

    def play(
        self,
        request: adventure_tours_pb2.AdventureToursServicePlayRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return self._invoke("Play", request, timeout)

    def review(
        self,
        request: adventure_tours_pb2.AdventureToursServiceReviewRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return self._invoke("Review", request, timeout)


class AsyncHappyCampersClient(AsyncGameClient):
    """HappyCampers RPCs (asyncio: every method is a coroutine)."""

    GAME = "happy-campers"
    STUB = happy_campers_pb2_grpc.HappyCampersServiceStub

    async def hint(
        self, request: happy_campers_pb2.HappyCampersServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return await self._invoke("Hint", request, timeout)

    async def max_score(
        self,
        request: happy_campers_pb2.HappyCampersServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return await self._invoke("MaxScore", request, timeout)

    async def generate_puzzle(
        self,
        request: happy_campers_pb2.HappyCampersServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return await self._invoke("GeneratePuzzle", request, timeout)

    async def score(
        self, request: happy_campers_pb2.HappyCampersServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceScoreResponse:
        """Score a state by the rules model."""
        return await self._invoke("Score", request, timeout)

    async def legal_moves(
        self,
        request: happy_campers_pb2.HappyCampersServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> happy_campers_pb2.HappyCampersServiceLegalMovesResponse:
        """The legal moves of a state."""
        return await self._invoke("LegalMoves", request, timeout)

    async def new_game(
        self, request: happy_campers_pb2.HappyCampersServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return await self._invoke("NewGame", request, timeout)

    async def play(
        self, request: happy_campers_pb2.HappyCampersServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return await self._invoke("Play", request, timeout)

    async def review(
        self, request: happy_campers_pb2.HappyCampersServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> happy_campers_pb2.HappyCampersServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return await self._invoke("Review", request, timeout)


class AsyncDeluxeCampingClient(AsyncGameClient):
    """DeluxeCamping RPCs (asyncio: every method is a coroutine)."""

    GAME = "deluxe-camping"
    STUB = deluxe_camping_pb2_grpc.DeluxeCampingServiceStub

    async def hint(
        self, request: deluxe_camping_pb2.DeluxeCampingServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return await self._invoke("Hint", request, timeout)

    async def max_score(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return await self._invoke("MaxScore", request, timeout)

    async def generate_puzzle(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return await self._invoke("GeneratePuzzle", request, timeout)

    async def score(
        self, request: deluxe_camping_pb2.DeluxeCampingServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServiceScoreResponse:
        """Score a state by the rules model."""
        return await self._invoke("Score", request, timeout)

    async def legal_moves(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceLegalMovesResponse:
        """The legal moves of a state."""
        return await self._invoke("LegalMoves", request, timeout)

    async def new_game(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceNewGameRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return await self._invoke("NewGame", request, timeout)

    async def play(
        self, request: deluxe_camping_pb2.DeluxeCampingServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> deluxe_camping_pb2.DeluxeCampingServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return await self._invoke("Play", request, timeout)

    async def review(
        self,
        request: deluxe_camping_pb2.DeluxeCampingServiceReviewRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> deluxe_camping_pb2.DeluxeCampingServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return await self._invoke("Review", request, timeout)


class AsyncCampsiteClient(AsyncGameClient):
    """Campsite RPCs (asyncio: every method is a coroutine)."""

    GAME = "campsite"
    STUB = campsite_pb2_grpc.CampsiteServiceStub

    async def hint(
        self, request: campsite_pb2.CampsiteServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return await self._invoke("Hint", request, timeout)

    async def max_score(
        self, request: campsite_pb2.CampsiteServiceMaxScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return await self._invoke("MaxScore", request, timeout)

    async def generate_puzzle(
        self, request: campsite_pb2.CampsiteServiceGeneratePuzzleRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return await self._invoke("GeneratePuzzle", request, timeout)

    async def score(
        self, request: campsite_pb2.CampsiteServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceScoreResponse:
        """Score a state by the rules model."""
        return await self._invoke("Score", request, timeout)

    async def legal_moves(
        self, request: campsite_pb2.CampsiteServiceLegalMovesRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceLegalMovesResponse:
        """The legal moves of a state."""
        return await self._invoke("LegalMoves", request, timeout)

    async def new_game(
        self, request: campsite_pb2.CampsiteServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return await self._invoke("NewGame", request, timeout)

    async def play(
        self, request: campsite_pb2.CampsiteServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return await self._invoke("Play", request, timeout)

    async def review(
        self, request: campsite_pb2.CampsiteServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> campsite_pb2.CampsiteServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return await self._invoke("Review", request, timeout)


class AsyncCamperTourClient(AsyncGameClient):
    """CamperTour RPCs (asyncio: every method is a coroutine)."""

    GAME = "camper-tour"
    STUB = camper_tour_pb2_grpc.CamperTourServiceStub

    async def hint(
        self, request: camper_tour_pb2.CamperTourServiceHintRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return await self._invoke("Hint", request, timeout)

    async def max_score(
        self, request: camper_tour_pb2.CamperTourServiceMaxScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return await self._invoke("MaxScore", request, timeout)

    async def generate_puzzle(
        self,
        request: camper_tour_pb2.CamperTourServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> camper_tour_pb2.CamperTourServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return await self._invoke("GeneratePuzzle", request, timeout)

    async def score(
        self, request: camper_tour_pb2.CamperTourServiceScoreRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceScoreResponse:
        """Score a state by the rules model."""
        return await self._invoke("Score", request, timeout)

    async def legal_moves(
        self, request: camper_tour_pb2.CamperTourServiceLegalMovesRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceLegalMovesResponse:
        """The legal moves of a state."""
        return await self._invoke("LegalMoves", request, timeout)

    async def new_game(
        self, request: camper_tour_pb2.CamperTourServiceNewGameRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return await self._invoke("NewGame", request, timeout)

    async def play(
        self, request: camper_tour_pb2.CamperTourServicePlayRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return await self._invoke("Play", request, timeout)

    async def review(
        self, request: camper_tour_pb2.CamperTourServiceReviewRequest, *, timeout: float | None = DEFAULT_TIMEOUT_S
    ) -> camper_tour_pb2.CamperTourServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return await self._invoke("Review", request, timeout)


class AsyncAdventureToursClient(AsyncGameClient):
    """AdventureTours RPCs (asyncio: every method is a coroutine)."""

    GAME = "adventure-tours"
    STUB = adventure_tours_pb2_grpc.AdventureToursServiceStub

    async def hint(
        self,
        request: adventure_tours_pb2.AdventureToursServiceHintRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceHintResponse:
        """The best move now with every alternative ranked (value, loss versus the best)."""
        return await self._invoke("Hint", request, timeout)

    async def max_score(
        self,
        request: adventure_tours_pb2.AdventureToursServiceMaxScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceMaxScoreResponse:
        """The theoretical maximum with its proof status (or the best found and its bound)."""
        return await self._invoke("MaxScore", request, timeout)

    async def generate_puzzle(
        self,
        request: adventure_tours_pb2.AdventureToursServiceGeneratePuzzleRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceGeneratePuzzleResponse:
        """A seeded puzzle with a proven unique optimum and a difficulty grade."""
        return await self._invoke("GeneratePuzzle", request, timeout)

    async def score(
        self,
        request: adventure_tours_pb2.AdventureToursServiceScoreRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceScoreResponse:
        """Score a state by the rules model."""
        return await self._invoke("Score", request, timeout)

    async def legal_moves(
        self,
        request: adventure_tours_pb2.AdventureToursServiceLegalMovesRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceLegalMovesResponse:
        """The legal moves of a state."""
        return await self._invoke("LegalMoves", request, timeout)

    async def new_game(
        self,
        request: adventure_tours_pb2.AdventureToursServiceNewGameRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceNewGameResponse:
        """A seeded new game: the state and whose turn it is."""
        return await self._invoke("NewGame", request, timeout)

    async def play(
        self,
        request: adventure_tours_pb2.AdventureToursServicePlayRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServicePlayResponse:
        """Play a move (or a chance step: seeded, or listed with exact probabilities) and get the next state."""
        return await self._invoke("Play", request, timeout)

    async def review(
        self,
        request: adventure_tours_pb2.AdventureToursServiceReviewRequest,
        *,
        timeout: float | None = DEFAULT_TIMEOUT_S,
    ) -> adventure_tours_pb2.AdventureToursServiceReviewResponse:
        """A game's record reviewed: each decision's loss against the hint's best, marks and each player's totals."""
        return await self._invoke("Review", request, timeout)


#: Game CLI name -> client class.
SYNC_CLIENTS: dict[str, type[GameClient]] = {
    c.GAME: c for c in (HappyCampersClient, DeluxeCampingClient, CampsiteClient, CamperTourClient, AdventureToursClient)
}
ASYNC_CLIENTS: dict[str, type[AsyncGameClient]] = {
    c.GAME: c
    for c in (
        AsyncHappyCampersClient,
        AsyncDeluxeCampingClient,
        AsyncCampsiteClient,
        AsyncCamperTourClient,
        AsyncAdventureToursClient,
    )
}
