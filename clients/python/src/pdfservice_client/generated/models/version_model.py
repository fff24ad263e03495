from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="VersionModel")



@_attrs_define
class VersionModel:
    """ One kept version of a document (docs/versions.md)

        Attributes:
            id (str): Opaque and ordered: a later version sorts after an earlier one
            etag (str): Its strong ETag (the content hash), as the document had it
            size (int):
            created (datetime.datetime): When the write that made it landed
            user (None | str): Who wrote it; null for the service's own work, or content found unrecorded (written while
                versions were off)
            operation (str): What wrote it: "upload" (PUT, form upload, conversion), an action's name
                ("ApplyRedactionsAction"), an edit's engine task ("addAnnotation"), "restore", or "unrecorded"
            request_id (None | str): The X-Request-Id of the request that wrote it, when a request did
            job_id (None | str): The background job that wrote it, when a job did
            page_count (int | None): Its page count when the write knew it
            label (None | str):
            pinned (bool): Kept whatever the retention policy says (docs/versions.md, Retention)
            current (bool): Whether it is the document's current content
     """

    id: str
    etag: str
    size: int
    created: datetime.datetime
    user: None | str
    operation: str
    request_id: None | str
    job_id: None | str
    page_count: int | None
    label: None | str
    pinned: bool
    current: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        etag = self.etag

        size = self.size

        created = self.created.isoformat()

        user: None | str
        user = self.user

        operation = self.operation

        request_id: None | str
        request_id = self.request_id

        job_id: None | str
        job_id = self.job_id

        page_count: int | None
        page_count = self.page_count

        label: None | str
        label = self.label

        pinned = self.pinned

        current = self.current


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "etag": etag,
            "size": size,
            "created": created,
            "user": user,
            "operation": operation,
            "requestId": request_id,
            "jobId": job_id,
            "pageCount": page_count,
            "label": label,
            "pinned": pinned,
            "current": current,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        etag = d.pop("etag")

        size = d.pop("size")

        created = datetime.datetime.fromisoformat(d.pop("created"))




        def _parse_user(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        user = _parse_user(d.pop("user"))


        operation = d.pop("operation")

        def _parse_request_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        request_id = _parse_request_id(d.pop("requestId"))


        def _parse_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        job_id = _parse_job_id(d.pop("jobId"))


        def _parse_page_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        page_count = _parse_page_count(d.pop("pageCount"))


        def _parse_label(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        label = _parse_label(d.pop("label"))


        pinned = d.pop("pinned")

        current = d.pop("current")

        version_model = cls(
            id=id,
            etag=etag,
            size=size,
            created=created,
            user=user,
            operation=operation,
            request_id=request_id,
            job_id=job_id,
            page_count=page_count,
            label=label,
            pinned=pinned,
            current=current,
        )


        version_model.additional_properties = d
        return version_model

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
