"""`python -m campsolver` runs the CLI."""

from campsolver.clients.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
