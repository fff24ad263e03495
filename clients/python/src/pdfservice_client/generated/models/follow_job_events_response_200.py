from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.follow_job_events_response_200_event import FollowJobEventsResponse200Event






T = TypeVar("T", bound="FollowJobEventsResponse200")



@_attrs_define
class FollowJobEventsResponse200:
    """ 
        Attributes:
            id (str): Rises by one per event of the job; send it back as Last-Event-ID to resume
            event (FollowJobEventsResponse200Event):
            data (str):
     """

    id: str
    event: FollowJobEventsResponse200Event
    data: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event = self.event.value

        data = self.data


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "event": event,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        event = FollowJobEventsResponse200Event(d.pop("event"))




        data = d.pop("data")

        follow_job_events_response_200 = cls(
            id=id,
            event=event,
            data=data,
        )


        follow_job_events_response_200.additional_properties = d
        return follow_job_events_response_200

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
