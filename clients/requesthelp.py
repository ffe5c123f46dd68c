"""`campsolver GAME COMMAND --help`: what the command's request holds, read from the .proto source.

The runtime descriptors carry field names and types but not the comments that explain them; the .proto files
do (shipped in the wheel beside the generated code, `protos/` in a checkout), so the help quotes them.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from google.protobuf.descriptor import Descriptor, FieldDescriptor

import campsolver.v1

_FIELD = re.compile(r"^\s*(?:optional\s+|repeated\s+)?[\w.]+\s+(\w+)\s*=\s*\d+\s*;")
_MESSAGE = re.compile(r"^\s*message\s+(\w+)\s*\{")
_REPO_PROTOS = Path(__file__).resolve().parents[1] / "protos"
#: Help text width.
WIDTH = 100


def _proto_source(descriptor: Descriptor) -> str | None:
    name = Path(descriptor.file.name).name
    for folder in (Path(campsolver.v1.__file__).parent, _REPO_PROTOS / "campsolver" / "v1"):
        path = folder / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def field_comments(descriptor: Descriptor) -> dict[str, str]:
    """Field name -> the comment lines above it in the message's .proto source (empty when not found)."""
    source = _proto_source(descriptor)
    if source is None:
        return {}
    comments: dict[str, str] = {}
    inside, depth, pending = False, 0, []
    for line in source.splitlines():
        if not inside:
            match = _MESSAGE.match(line)
            if match and match.group(1) == descriptor.name:
                inside, depth = True, 1
            continue
        stripped = line.strip()
        if stripped.startswith("//"):
            pending.append(stripped[2:].strip())
            continue
        field = _FIELD.match(line)
        if field and depth == 1:
            comments[field.group(1)] = " ".join(pending)
        pending = []
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            break
    return comments


def _type_name(field: FieldDescriptor) -> str:
    if field.message_type is not None:
        kind = field.message_type.name
    elif field.enum_type is not None:
        kind = field.enum_type.name
    else:
        kind = {
            FieldDescriptor.TYPE_STRING: "string",
            FieldDescriptor.TYPE_BOOL: "bool",
            FieldDescriptor.TYPE_DOUBLE: "number",
            FieldDescriptor.TYPE_FLOAT: "number",
        }.get(field.type, "integer")
    return f"list of {kind}" if field.is_repeated else kind


def request_help(game_name: str, command_name: str, summary: str, request: Descriptor) -> str:
    """The help of one command: what it does, the request's top-level fields, and the example to start from."""
    comments = field_comments(request)
    lines = [
        f"campsolver {game_name} {command_name}: {summary}.",
        "",
        f"The request ({request.full_name}, proto3 JSON) holds:",
    ]
    for field in request.fields:
        note = comments.get(field.name, "")
        if not note and field.enum_type is not None:
            note = "One of " + ", ".join(v.name for v in field.enum_type.values[1:]) + " (unset: the default)."
        if not note and field.message_type is not None:  # say at least what it is made of
            note = "Holds " + ", ".join(f.json_name for f in field.message_type.fields) + "."
        text = f"{field.json_name}: {_type_name(field)}" + (f". {note}" if note else "")
        lines.extend(textwrap.wrap(text, width=WIDTH, initial_indent="  ", subsequent_indent="      "))
    lines += [
        "",
        "Start from the example request:",
        f"  campsolver {game_name} example {command_name} > request.json",
        f"  campsolver {game_name} {command_name} --request request.json [--server HOST:PORT] [--format text]",
    ]
    return "\n".join(lines)
