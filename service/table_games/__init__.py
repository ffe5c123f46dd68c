"""Each game at the web table: `base` holds what they share and why (who sees what, offers, the log); one module
a game fills it in."""

from __future__ import annotations

from campsolver.service.table_games.adventure_tours import AdventureTours
from campsolver.service.table_games.base import Adapter, LogLine, Offer, SecondStage, seat_letter
from campsolver.service.table_games.camper_tour import CamperTour
from campsolver.service.table_games.campsite import Campsite
from campsolver.service.table_games.deluxe_camping import DeluxeCamping
from campsolver.service.table_games.happy_campers import HappyCampers

#: Every game the table seats, by its CLI name.
ADAPTERS: dict[str, Adapter] = {
    adapter.name: adapter for adapter in (HappyCampers(), DeluxeCamping(), Campsite(), CamperTour(), AdventureTours())
}

__all__ = ["ADAPTERS", "Adapter", "LogLine", "Offer", "SecondStage", "seat_letter"]
