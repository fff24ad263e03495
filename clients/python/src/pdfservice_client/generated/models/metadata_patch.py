from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.metadata_patch_custom_type_0 import MetadataPatchCustomType0





T = TypeVar("T", bound="MetadataPatch")



@_attrs_define
class MetadataPatch:
    """ A JSON merge patch (RFC 7396) of the metadata: a field given replaces it, null removes it, an absent one stays. In
    custom, each key likewise; custom: null removes every custom key.

        Attributes:
            title (None | str | Unset):
            author (None | str | Unset):
            subject (None | str | Unset):
            keywords (None | str | Unset):
            creator (None | str | Unset):
            producer (None | str | Unset):
            creation_date (None | str | Unset):
            modification_date (None | str | Unset):
            language (None | str | Unset):
            custom (MetadataPatchCustomType0 | None | Unset):
     """

    title: None | str | Unset = UNSET
    author: None | str | Unset = UNSET
    subject: None | str | Unset = UNSET
    keywords: None | str | Unset = UNSET
    creator: None | str | Unset = UNSET
    producer: None | str | Unset = UNSET
    creation_date: None | str | Unset = UNSET
    modification_date: None | str | Unset = UNSET
    language: None | str | Unset = UNSET
    custom: MetadataPatchCustomType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.metadata_patch_custom_type_0 import MetadataPatchCustomType0 # noqa: PLC0415
        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        author: None | str | Unset
        if isinstance(self.author, Unset):
            author = UNSET
        else:
            author = self.author

        subject: None | str | Unset
        if isinstance(self.subject, Unset):
            subject = UNSET
        else:
            subject = self.subject

        keywords: None | str | Unset
        if isinstance(self.keywords, Unset):
            keywords = UNSET
        else:
            keywords = self.keywords

        creator: None | str | Unset
        if isinstance(self.creator, Unset):
            creator = UNSET
        else:
            creator = self.creator

        producer: None | str | Unset
        if isinstance(self.producer, Unset):
            producer = UNSET
        else:
            producer = self.producer

        creation_date: None | str | Unset
        if isinstance(self.creation_date, Unset):
            creation_date = UNSET
        else:
            creation_date = self.creation_date

        modification_date: None | str | Unset
        if isinstance(self.modification_date, Unset):
            modification_date = UNSET
        else:
            modification_date = self.modification_date

        language: None | str | Unset
        if isinstance(self.language, Unset):
            language = UNSET
        else:
            language = self.language

        custom: dict[str, Any] | None | Unset
        if isinstance(self.custom, Unset):
            custom = UNSET
        elif isinstance(self.custom, MetadataPatchCustomType0):
            custom = self.custom.to_dict()
        else:
            custom = self.custom


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
        from ..models.metadata_patch_custom_type_0 import MetadataPatchCustomType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        def _parse_author(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        author = _parse_author(d.pop("author", UNSET))


        def _parse_subject(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subject = _parse_subject(d.pop("subject", UNSET))


        def _parse_keywords(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        keywords = _parse_keywords(d.pop("keywords", UNSET))


        def _parse_creator(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        creator = _parse_creator(d.pop("creator", UNSET))


        def _parse_producer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        producer = _parse_producer(d.pop("producer", UNSET))


        def _parse_creation_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        creation_date = _parse_creation_date(d.pop("creationDate", UNSET))


        def _parse_modification_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        modification_date = _parse_modification_date(d.pop("modificationDate", UNSET))


        def _parse_language(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        language = _parse_language(d.pop("language", UNSET))


        def _parse_custom(data: object) -> MetadataPatchCustomType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                custom_type_0 = MetadataPatchCustomType0.from_dict(data)



                return custom_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetadataPatchCustomType0 | None | Unset, data)

        custom = _parse_custom(d.pop("custom", UNSET))


        metadata_patch = cls(
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

        return metadata_patch

