from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="GetJobJobWebhookDeliveriesItem")



@_attrs_define
class GetJobJobWebhookDeliveriesItem:
    """ 
        Attributes:
            attempt (int):
            at (datetime.datetime):
            status (int | Unset): The receiver's HTTP status, when it answered (2xx: delivered; a redirect is not followed)
            error (str | Unset): Why the attempt had no answer (refused, unreachable, timed out)
     """

    attempt: int
    at: datetime.datetime
    status: int | Unset = UNSET
    error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        at = self.at.isoformat()

        status = self.status

        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt": attempt,
            "at": at,
        })
        if status is not UNSET:
            field_dict["status"] = status
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        status = d.pop("status", UNSET)

        error = d.pop("error", UNSET)

        get_job_job_webhook_deliveries_item = cls(
            attempt=attempt,
            at=at,
            status=status,
            error=error,
        )


        get_job_job_webhook_deliveries_item.additional_properties = d
        return get_job_job_webhook_deliveries_item

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
