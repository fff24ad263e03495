from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.new_document_attachment_relationship import NewDocumentAttachmentRelationship
from ..types import UNSET, Unset






T = TypeVar("T", bound="NewDocumentAttachment")



@_attrs_define
class NewDocumentAttachment:
    """ 
        Attributes:
            name (str | Unset): The attachment's name (POST; default: the file's name, else "attachment")
            file_name (str | Unset): The file name written in the file specification (default: the name)
            description (str | Unset): /Desc
            media_type (str | Unset): The file's media type (default: the part's Content-Type; PUT: the body's unless
                application/octet-stream)
            relationship (NewDocumentAttachmentRelationship | Unset): AFRelationship (default Unspecified)
            creation_date (str | Unset): ISO 8601 (default: now)
            modification_date (str | Unset): ISO 8601 (default: now)
            replace (bool | Unset): Replace an attachment of the same name (else 409 ATTACHMENT_EXISTS) Default: False.
     """

    name: str | Unset = UNSET
    file_name: str | Unset = UNSET
    description: str | Unset = UNSET
    media_type: str | Unset = UNSET
    relationship: NewDocumentAttachmentRelationship | Unset = UNSET
    creation_date: str | Unset = UNSET
    modification_date: str | Unset = UNSET
    replace: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        file_name = self.file_name

        description = self.description

        media_type = self.media_type

        relationship: str | Unset = UNSET
        if not isinstance(self.relationship, Unset):
            relationship = self.relationship.value


        creation_date = self.creation_date

        modification_date = self.modification_date

        replace = self.replace


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if file_name is not UNSET:
            field_dict["fileName"] = file_name
        if description is not UNSET:
            field_dict["description"] = description
        if media_type is not UNSET:
            field_dict["mediaType"] = media_type
        if relationship is not UNSET:
            field_dict["relationship"] = relationship
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modification_date is not UNSET:
            field_dict["modificationDate"] = modification_date
        if replace is not UNSET:
            field_dict["replace"] = replace

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        file_name = d.pop("fileName", UNSET)

        description = d.pop("description", UNSET)

        media_type = d.pop("mediaType", UNSET)

        _relationship = d.pop("relationship", UNSET)
        relationship: NewDocumentAttachmentRelationship | Unset
        if isinstance(_relationship,  Unset):
            relationship = UNSET
        else:
            relationship = NewDocumentAttachmentRelationship(_relationship)




        creation_date = d.pop("creationDate", UNSET)

        modification_date = d.pop("modificationDate", UNSET)

        replace = d.pop("replace", UNSET)

        new_document_attachment = cls(
            name=name,
            file_name=file_name,
            description=description,
            media_type=media_type,
            relationship=relationship,
            creation_date=creation_date,
            modification_date=modification_date,
            replace=replace,
        )

        return new_document_attachment

