from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="GetHealthResponse200Engine")



@_attrs_define
class GetHealthResponse200Engine:
    """ The engine workers now, and counts of engine tasks since the service started

        Attributes:
            workers (int | Unset):
            busy (int | Unset):
            queued (int | Unset):
            completed (int | Unset): tasks that answered with a result
            failed (int | Unset): tasks that answered with an error, bad input included
            timed_out (int | Unset): tasks stopped at the task timeout
            cancelled (int | Unset): tasks stopped because their caller aborted them (the client went away)
            crashed (int | Unset): workers that died during a task
            recycled (int | Unset): workers replaced as a precaution
            refused (int | Unset): tasks refused because the queue was full
     """

    workers: int | Unset = UNSET
    busy: int | Unset = UNSET
    queued: int | Unset = UNSET
    completed: int | Unset = UNSET
    failed: int | Unset = UNSET
    timed_out: int | Unset = UNSET
    cancelled: int | Unset = UNSET
    crashed: int | Unset = UNSET
    recycled: int | Unset = UNSET
    refused: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        workers = self.workers

        busy = self.busy

        queued = self.queued

        completed = self.completed

        failed = self.failed

        timed_out = self.timed_out

        cancelled = self.cancelled

        crashed = self.crashed

        recycled = self.recycled

        refused = self.refused


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if workers is not UNSET:
            field_dict["workers"] = workers
        if busy is not UNSET:
            field_dict["busy"] = busy
        if queued is not UNSET:
            field_dict["queued"] = queued
        if completed is not UNSET:
            field_dict["completed"] = completed
        if failed is not UNSET:
            field_dict["failed"] = failed
        if timed_out is not UNSET:
            field_dict["timedOut"] = timed_out
        if cancelled is not UNSET:
            field_dict["cancelled"] = cancelled
        if crashed is not UNSET:
            field_dict["crashed"] = crashed
        if recycled is not UNSET:
            field_dict["recycled"] = recycled
        if refused is not UNSET:
            field_dict["refused"] = refused

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workers = d.pop("workers", UNSET)

        busy = d.pop("busy", UNSET)

        queued = d.pop("queued", UNSET)

        completed = d.pop("completed", UNSET)

        failed = d.pop("failed", UNSET)

        timed_out = d.pop("timedOut", UNSET)

        cancelled = d.pop("cancelled", UNSET)

        crashed = d.pop("crashed", UNSET)

        recycled = d.pop("recycled", UNSET)

        refused = d.pop("refused", UNSET)

        get_health_response_200_engine = cls(
            workers=workers,
            busy=busy,
            queued=queued,
            completed=completed,
            failed=failed,
            timed_out=timed_out,
            cancelled=cancelled,
            crashed=crashed,
            recycled=recycled,
            refused=refused,
        )


        get_health_response_200_engine.additional_properties = d
        return get_health_response_200_engine

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
