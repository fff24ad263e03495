from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.metadata_request_custom import MetadataRequestCustom





T = TypeVar("T", bound="MetadataRequest")



@_attrs_define
class MetadataRequest:
    """ The whole metadata: what the body does not give is removed (but modificationDate, set to the time of the write).

        Attributes:
            title (str | Unset): Info /Title; XMP dc:title
            author (str | Unset): Info /Author; XMP dc:creator
            subject (str | Unset): Info /Subject; XMP dc:description
            keywords (str | Unset): Info /Keywords; XMP pdf:Keywords
            creator (str | Unset): Info /Creator (the application that made the original); XMP xmp:CreatorTool
            producer (str | Unset): Info /Producer (the application that made the PDF); XMP pdf:Producer
            creation_date (str | Unset): Info /CreationDate; XMP xmp:CreateDate: ISO 8601 with a zone (seconds optional, a
                fraction dropped)
            modification_date (str | Unset): Info /ModDate; XMP xmp:ModifyDate. A write sets it to its own time unless the
                body names it: ISO 8601 with a zone (seconds optional, a fraction dropped)
            language (str | Unset): The catalog's /Lang (BCP 47, e.g. de-CH); XMP dc:language
            custom (MetadataRequestCustom | Unset): Custom Info keys (pdfx properties in XMP)
     """

    title: str | Unset = UNSET
    author: str | Unset = UNSET
    subject: str | Unset = UNSET
    keywords: str | Unset = UNSET
    creator: str | Unset = UNSET
    producer: str | Unset = UNSET
    creation_date: str | Unset = UNSET
    modification_date: str | Unset = UNSET
    language: str | Unset = UNSET
    custom: MetadataRequestCustom | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.metadata_request_custom import MetadataRequestCustom # noqa: PLC0415
        title = self.title

        author = self.author

        subject = self.subject

        keywords = self.keywords

        creator = self.creator

        producer = self.producer

        creation_date = self.creation_date

        modification_date = self.modification_date

        language = self.language

        custom: dict[str, Any] | Unset = UNSET
        if not isinstance(self.custom, Unset):
            custom = self.custom.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if title is not UNSET:
            field_dict["title"] = title
        if author is not UNSET:
            field_dict["author"] = author
        if subject is not UNSET:
            field_dict["subject"] = subject
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if creator is not UNSET:
            field_dict["creator"] = creator
        if producer is not UNSET:
            field_dict["producer"] = producer
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if modification_date is not UNSET:
            field_dict["modificationDate"] = modification_date
        if language is not UNSET:
            field_dict["language"] = language
        if custom is not UNSET:
            field_dict["custom"] = custom

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata_request_custom import MetadataRequestCustom # noqa: PLC0415
        d = dict(src_dict)
        title = d.pop("title", UNSET)

        author = d.pop("author", UNSET)

        subject = d.pop("subject", UNSET)

        keywords = d.pop("keywords", UNSET)

        creator = d.pop("creator", UNSET)

        producer = d.pop("producer", UNSET)

        creation_date = d.pop("creationDate", UNSET)

        modification_date = d.pop("modificationDate", UNSET)

        language = d.pop("language", UNSET)

        _custom = d.pop("custom", UNSET)
        custom: MetadataRequestCustom | Unset
        if isinstance(_custom,  Unset):
            custom = UNSET
        else:
            custom = MetadataRequestCustom.from_dict(_custom)




        metadata_request = cls(
            title=title,
            author=author,
            subject=subject,
            keywords=keywords,
            creator=creator,
            producer=producer,
            creation_date=creation_date,
            modification_date=modification_date,
            language=language,
            custom=custom,
        )

        return metadata_request

