"""Package layout: the repository keeps `solver/`, `service/` and `clients/` at the top, the wheel installs them
under the one `campsolver` namespace (`campsolver.solver`, ...). `bench/` and `tools/` stay repository tools.

The package list is computed here (not in pyproject.toml) so a new game package is picked up without editing it.
"""

import shutil
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

MAPPED_ROOTS = ("solver", "service", "clients")
#: The .proto sources, shipped beside their generated code (`campsolver/v1/`) so a wheel user can generate a
#: client in another language from exactly what the server speaks.
PROTO_DIR = Path("protos") / "campsolver" / "v1"


class BuildWithProtos(build_py):
    """build_py that also copies the .proto files into the built `campsolver/v1` package."""

    def run(self) -> None:
        super().run()
        target = Path(self.build_lib) / "campsolver" / "v1"
        target.mkdir(parents=True, exist_ok=True)
        for proto in sorted(PROTO_DIR.glob("*.proto")):
            shutil.copy2(proto, target / proto.name)


def _mapped(root: str) -> list[str]:
    return [f"campsolver.{root}"] + [f"campsolver.{root}.{name}" for name in find_packages(root)]


setup(
    packages=[
        "campsolver",
        *(f"campsolver.{name}" for name in find_packages("campsolver")),  # v1 (generated code), openspiel
        *(name for root in MAPPED_ROOTS for name in _mapped(root)),
    ],
    package_dir={"campsolver": "campsolver", **{f"campsolver.{root}": root for root in MAPPED_ROOTS}},
    package_data={
        "campsolver": ["py.typed"],
        "campsolver.solver": ["**/*.json", "**/*.txt", "**/*.npy"],
        "campsolver.service": ["web/*"],  # the web table's static files, served at / of the HTTP port
    },
    cmdclass={"build_py": BuildWithProtos},
)
