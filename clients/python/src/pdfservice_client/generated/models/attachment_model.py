from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AttachmentModel")



@_attrs_define
class AttachmentModel:
    """ AttachmentModel (XML: <Attachment>): the file of a FileAttachment annotation

        Attributes:
            annotation (str):
            file_name (str):
            media_type (str):
            size (int):
            checksum (str): MD5, hex
            description (str | Unset):
            creation_date (datetime.datetime | Unset):
            modification_date (datetime.datetime | Unset):
     """

    annotation: str
    file_name: str
    media_type: str
    size: int
    checksum: str
    description: str | Unset = UNSET
    creation_date: datetime.datetime | Unset = UNSET
    modification_date: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        annotation = self.annotation

        file_name = self.file_name

        media_type = self.media_type

        size = self.size

        checksum = self.checksum

        description = self.description

        creation_date: str | Unset = UNSET
        if not isinstance(self.creation_date, Unset):
            creation_date = self.creation_date.isoformat()

        modification_date: str | Unset = UNSET
        if not isinstance(self.modification_date, Unset):
            modification_date = self.modification_date.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "annotation": annotation,
            "fileName": file_name,
            "mediaType": media_type,
            "size": size,
            "checksum": checksum,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modification_date is not UNSET:
            field_dict["modificationDate"] = modification_date

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        annotation = d.pop("annotation")

        file_name = d.pop("fileName")

        media_type = d.pop("mediaType")

        size = d.pop("size")

        checksum = d.pop("checksum")

        description = d.pop("description", UNSET)

        _creation_date = d.pop("creationDate", UNSET)
        creation_date: datetime.datetime | Unset
        if isinstance(_creation_date,  Unset):
            creation_date = UNSET
        else:
            creation_date = datetime.datetime.fromisoformat(_creation_date)




        _modification_date = d.pop("modificationDate", UNSET)
        modification_date: datetime.datetime | Unset
        if isinstance(_modification_date,  Unset):
            modification_date = UNSET
        else:
            modification_date = datetime.datetime.fromisoformat(_modification_date)




        attachment_model = cls(
            annotation=annotation,
            file_name=file_name,
            media_type=media_type,
            size=size,
            checksum=checksum,
            description=description,
            creation_date=creation_date,
            modification_date=modification_date,
        )


        attachment_model.additional_properties = d
        return attachment_model

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
