"""OpenSpiel adapters: importing this package registers the five games with `pyspiel.register_game`.

`campsolver_happy_campers`, `campsolver_deluxe_camping`, `campsolver_campsite`, `campsolver_camper_tour` and
`campsolver_adventure_tours`, one small module each, every one a thin layer over its rules model (the rules
models never import OpenSpiel). Needs the `openspiel` extra (`pip install campsolver[openspiel]`). Action
encodings and parameters: docs/openspiel.md.
"""

from campsolver.openspiel import adventure_tours, camper_tour, campsite, deluxe_camping, happy_campers
from campsolver.openspiel.common import resampler

GAMES = {
    adventure_tours.SHORT_NAME: adventure_tours,
    campsite.SHORT_NAME: campsite,
    deluxe_camping.SHORT_NAME: deluxe_camping,
    happy_campers.SHORT_NAME: happy_campers,
    camper_tour.SHORT_NAME: camper_tour,
}

__all__ = ["GAMES", "adventure_tours", "camper_tour", "campsite", "deluxe_camping", "happy_campers", "resampler"]
