from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.job_webhook_state import JobWebhookState
from typing import cast

if TYPE_CHECKING:
  from ..models.job_webhook_deliveries_item import JobWebhookDeliveriesItem





T = TypeVar("T", bound="JobWebhook")



@_attrs_define
class JobWebhook:
    """ The URL the job's end is POSTed to (X-Service-Webhook-Url, docs/webhooks.md) and the delivery log; not in the
    webhook's own body

        Attributes:
            url (str):
            state (JobWebhookState): pending until an attempt is answered 2xx (delivered) or the last attempt failed
                (failed)
            deliveries (list[JobWebhookDeliveriesItem]): Each attempt, oldest first
     """

    url: str
    state: JobWebhookState
    deliveries: list[JobWebhookDeliveriesItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.job_webhook_deliveries_item import JobWebhookDeliveriesItem # noqa: PLC0415
        url = self.url

        state = self.state.value

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "url": url,
            "state": state,
            "deliveries": deliveries,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_webhook_deliveries_item import JobWebhookDeliveriesItem # noqa: PLC0415
        d = dict(src_dict)
        url = d.pop("url")

        state = JobWebhookState(d.pop("state"))




        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in (_deliveries):
            deliveries_item = JobWebhookDeliveriesItem.from_dict(deliveries_item_data)



            deliveries.append(deliveries_item)


        job_webhook = cls(
            url=url,
            state=state,
            deliveries=deliveries,
        )


        job_webhook.additional_properties = d
        return job_webhook

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
