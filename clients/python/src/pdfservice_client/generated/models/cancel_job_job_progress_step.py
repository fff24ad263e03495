from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CancelJobJobProgressStep")



@_attrs_define
class CancelJobJobProgressStep:
    """ A pipeline's job (docs/pipelines.md): the step running, from 1, of count, and its action; done, total and unit are
    that step's own progress, percent the whole pipeline's

        Attributes:
            index (int):
            count (int):
            action (str):
     """

    index: int
    count: int
    action: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        count = self.count

        action = self.action


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "index": index,
            "count": count,
            "action": action,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        count = d.pop("count")

        action = d.pop("action")

        cancel_job_job_progress_step = cls(
            index=index,
            count=count,
            action=action,
        )


        cancel_job_job_progress_step.additional_properties = d
        return cancel_job_job_progress_step

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
