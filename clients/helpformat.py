"""The help layout every `campsolver` command shares (the main CLI and `campsolver batch`): one module both import,
so neither CLI imports the other for it."""

from __future__ import annotations

import argparse


class DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults in every option's help (when there is one), descriptions kept as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        default = action.default
        text = action.help or ""
        if default in (None, False, (), argparse.SUPPRESS) or "default" in text or not text:
            return action.help  # nothing to show, or the help already says it
        shown = ",".join(str(v) for v in default) if isinstance(default, (tuple, list)) else "%(default)s"
        return f"{text} (default: {shown})"
