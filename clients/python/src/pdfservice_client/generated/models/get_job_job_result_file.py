from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="GetJobJobResultFile")



@_attrs_define
class GetJobJobResultFile:
    """ The job produced a file that is not a stored document (an export, a compare, a one-shot conversion): download it
    from `url` (GET /jobs/{id}/result) while the job is kept. `path`, `url` and `document` then name the document it was
    read from, unchanged (`document.etag`: the version read; a compare's other document is the job's `base`); a one-shot
    conversion has neither

        Attributes:
            name (str): The name it downloads under (Content-Disposition)
            media_type (str):
            size (int):
            etag (str): Its strong ETag, as the download answers it
            url (str): Where to download it: /pdfservice/v1/jobs/{id}/result
     """

    name: str
    media_type: str
    size: int
    etag: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        media_type = self.media_type

        size = self.size

        etag = self.etag

        url = self.url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "mediaType": media_type,
            "size": size,
            "etag": etag,
            "url": url,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        media_type = d.pop("mediaType")

        size = d.pop("size")

        etag = d.pop("etag")

        url = d.pop("url")

        get_job_job_result_file = cls(
            name=name,
            media_type=media_type,
            size=size,
            etag=etag,
            url=url,
        )


        get_job_job_result_file.additional_properties = d
        return get_job_job_result_file

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
