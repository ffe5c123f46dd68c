"""Generate the protobuf and gRPC Python code from protos/ into campsolver/v1/ (`make protos`).

`generate(out_dir)` is also used by the staleness test, which generates into a temporary directory and
compares byte for byte with the committed files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[1]
PROTO_ROOT = ROOT / "protos"
PACKAGE_DIR = Path("campsolver") / "v1"
INIT_TEXT = '"""Generated protobuf and gRPC code for campsolver.v1 (`make protos`; do not edit)."""\n'


def proto_files() -> list[Path]:
    return sorted((PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))


def generate(out_dir: Path) -> list[Path]:
    """Run protoc into `out_dir`; return the generated files relative to it."""
    out_dir.mkdir(parents=True, exist_ok=True)
    include = Path(protoc.__file__).resolve().parent / "_proto"
    args = [
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(p.relative_to(PROTO_ROOT)) for p in proto_files()),
    ]
    code = protoc.main(args)
    if code != 0:
        raise RuntimeError(f"protoc failed with exit code {code}")
    for package in (out_dir / "campsolver", out_dir / PACKAGE_DIR):
        (package / "__init__.py").write_text(INIT_TEXT)
    return sorted(p.relative_to(out_dir) for p in (out_dir / "campsolver").rglob("*") if p.is_file())


def main() -> int:
    generated = generate(ROOT)
    print(f"generated {len(generated)} files under {PACKAGE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
