"""A Server-Sent Events reader (the WHATWG ``text/event-stream`` format) over the lines of an httpx answer."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass
class EventMessage:
    #: The ``id`` in force at this message (the last one sent), for ``Last-Event-ID``.
    id: str | None
    #: ``message`` when the event names none.
    event: str
    data: str


def parse_events(lines: Iterable[str]) -> Iterator[EventMessage]:
    """The messages of a stream given as lines (without their line ends); an unfinished last message is dropped."""
    last_id: str | None = None
    event = ""
    data: list[str] = []
    for line in lines:
        if line == "":
            if data:
                yield EventMessage(last_id, event or "message", "\n".join(data))
            event, data = "", []
            continue
        if line.startswith(":"):  # a comment (the service's heartbeat)
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id" and "\0" not in value:
            last_id = value
