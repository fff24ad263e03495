from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="DocumentAttachment")



@_attrs_define
class DocumentAttachment:
    """ One embedded file of the document (the catalog's EmbeddedFiles name tree; not a FileAttachment annotation)

        Attributes:
            name (str): The key in the EmbeddedFiles tree: the name in .../attachments/{name}
            file_name (str): The file specification's /UF (else /F)
            media_type (str): The embedded file's /Subtype; application/octet-stream when it has none
            size (int): Bytes of the file
            checksum (str): MD5, hex: the stored /CheckSum, or computed when there is none
            associated (bool): Whether the catalog's /AF lists it (PDF/A-3, PDF 2.0: associated with the whole document)
            description (str | Unset): /Desc
            creation_date (datetime.datetime | Unset):
            modification_date (datetime.datetime | Unset):
            relationship (str | Unset): /AFRelationship (Source, Data, Alternative, Supplement, EncryptedPayload, FormData,
                Schema, Unspecified), when present
     """

    name: str
    file_name: str
    media_type: str
    size: int
    checksum: str
    associated: bool
    description: str | Unset = UNSET
    creation_date: datetime.datetime | Unset = UNSET
    modification_date: datetime.datetime | Unset = UNSET
    relationship: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        file_name = self.file_name

        media_type = self.media_type

        size = self.size

        checksum = self.checksum

        associated = self.associated

        description = self.description

        creation_date: str | Unset = UNSET
        if not isinstance(self.creation_date, Unset):
            creation_date = self.creation_date.isoformat()

        modification_date: str | Unset = UNSET
        if not isinstance(self.modification_date, Unset):
            modification_date = self.modification_date.isoformat()

        relationship = self.relationship


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "fileName": file_name,
            "mediaType": media_type,
            "size": size,
            "checksum": checksum,
            "associated": associated,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modification_date is not UNSET:
            field_dict["modificationDate"] = modification_date
        if relationship is not UNSET:
            field_dict["relationship"] = relationship

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        file_name = d.pop("fileName")

        media_type = d.pop("mediaType")

        size = d.pop("size")

        checksum = d.pop("checksum")

        associated = d.pop("associated")

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




        relationship = d.pop("relationship", UNSET)

        document_attachment = cls(
            name=name,
            file_name=file_name,
            media_type=media_type,
            size=size,
            checksum=checksum,
            associated=associated,
            description=description,
            creation_date=creation_date,
            modification_date=modification_date,
            relationship=relationship,
        )


        document_attachment.additional_properties = d
        return document_attachment

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
