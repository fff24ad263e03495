"""The service's errors as one exception: every 4xx and 5xx answer is an RFC 9457 problem document with a stable
``code`` (docs/errors.md), and a failed job carries the same document as its ``error``."""

from __future__ import annotations

import json
from typing import Any

import httpx


class PdfServiceError(Exception):
    """A problem document: ``status``, ``code`` (stable: switch on it), ``title``, ``detail``, ``request_id``, and
    the whole document in ``problem`` (extension members such as ``requiredRight`` or ``actions`` included)."""

    def __init__(self, problem: dict[str, Any]) -> None:
        self.problem = problem
        self.status: int = int(problem.get("status", 0))
        self.code: str = str(problem.get("code", ""))
        self.title: str = str(problem.get("title", ""))
        self.detail: str | None = problem.get("detail")
        self.request_id: str | None = problem.get("requestId")
        super().__init__(f"{self.status} {self.code}: {self.detail or self.title}")

    @classmethod
    def from_response(cls, response: httpx.Response) -> "PdfServiceError":
        """The error an answer carries; a body that is not a JSON problem document still makes one, coded
        ``HTTP_<status>``, so callers have one thing to catch."""
        request_id = response.headers.get("x-request-id")
        try:
            body = json.loads(response.content or b"null")
        except ValueError:
            body = None
        if isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("title"), str):
            body.setdefault("status", response.status_code)
            if request_id:
                body.setdefault("requestId", request_id)
            return cls(body)
        problem: dict[str, Any] = {"status": response.status_code, "code": f"HTTP_{response.status_code}", "title": response.reason_phrase or f"HTTP {response.status_code}"}
        if response.content:
            problem["detail"] = response.content[:500].decode("utf-8", "replace")
        if request_id:
            problem["requestId"] = request_id
        return cls(problem)
