"""Generate the protobuf and gRPC Python code from protos/ into campsolver/v1/ (`make protos`).

`generate(out_dir)` is also used by the staleness test, which generates into a temporary directory and
compares byte for byte with the committed files.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTO_ROOT = ROOT / "protos"
PACKAGE_DIR = Path("campsolver") / "v1"
INIT_TEXT = '"""Generated protobuf and gRPC code for campsolver.v1 (`make protos`; do not edit)."""\n'


def proto_files() -> list[Path]:
    return sorted((PROTO_ROOT / PACKAGE_DIR).glob("*.proto"))


def generate(out_dir: Path) -> list[Path]:
    """Run protoc into `out_dir`; return the generated files relative to it.

    protoc runs in a child process: grpc_tools and ortools each bundle their own libprotobuf, and loading
    both into one process aborts it (a descriptor-database clash), e.g. in a test session.
    `python -m grpc_tools.protoc` adds the well-known-types include path itself.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    args = [
        sys.executable,
        "-m",
        "grpc_tools.protoc",
        f"-I{PROTO_ROOT}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(p.relative_to(PROTO_ROOT)) for p in proto_files()),
    ]
    completed = subprocess.run(args, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"protoc failed ({completed.returncode}): {completed.stderr.strip()}")
    # Only campsolver/v1 is generated; campsolver/__init__.py (version, namespace docstring) is hand-written.
    (out_dir / PACKAGE_DIR / "__init__.py").write_text(INIT_TEXT)
    return sorted(p.relative_to(out_dir) for p in (out_dir / PACKAGE_DIR).rglob("*") if p.is_file())


def main() -> int:
    generated = generate(ROOT)
    print(f"generated {len(generated)} files under {PACKAGE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
