"""Package layout: the repository keeps `solver/`, `service/` and `clients/` at the top, the wheel installs them
under the one `campsolver` namespace (`campsolver.solver`, ...). `bench/` and `tools/` stay repository tools.

The package list is computed here (not in pyproject.toml) so a new game package is picked up without editing it.
"""

from setuptools import find_packages, setup

MAPPED_ROOTS = ("solver", "service", "clients")


def _mapped(root: str) -> list[str]:
    return [f"campsolver.{root}"] + [f"campsolver.{root}.{name}" for name in find_packages(root)]


setup(
    packages=[
        "campsolver",
        *(f"campsolver.{name}" for name in find_packages("campsolver")),  # v1 (generated code), openspiel
        *(name for root in MAPPED_ROOTS for name in _mapped(root)),
    ],
    package_dir={"campsolver": "campsolver", **{f"campsolver.{root}": root for root in MAPPED_ROOTS}},
    package_data={"campsolver": ["py.typed"], "campsolver.solver": ["**/*.json", "**/*.txt"]},
)
