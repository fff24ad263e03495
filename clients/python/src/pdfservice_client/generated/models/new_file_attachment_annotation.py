from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.new_file_attachment_annotation_icon import NewFileAttachmentAnnotationIcon
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.new_file_attachment_annotation_rectangle import NewFileAttachmentAnnotationRectangle





T = TypeVar("T", bound="NewFileAttachmentAnnotation")



@_attrs_define
class NewFileAttachmentAnnotation:
    """ The `annotation` part of an A4 request

        Attributes:
            subtype (str): FileAttachment (any case): the only subtype this operation creates
            name (str | Unset): The /NM; generated ("attachment-N") when absent
            page_index (int | Unset):  Default: 0.
            rectangle (NewFileAttachmentAnnotationRectangle | Unset): PDF user space; default: a 20 x 20 pt icon in the
                upper left corner of the page as shown
            contents (str | Unset):
            author (str | Unset):
            subject (str | Unset):
            icon (NewFileAttachmentAnnotationIcon | Unset):  Default: NewFileAttachmentAnnotationIcon.PUSHPIN.
            color (str | Unset):
     """

    subtype: str
    name: str | Unset = UNSET
    page_index: int | Unset = 0
    rectangle: NewFileAttachmentAnnotationRectangle | Unset = UNSET
    contents: str | Unset = UNSET
    author: str | Unset = UNSET
    subject: str | Unset = UNSET
    icon: NewFileAttachmentAnnotationIcon | Unset = NewFileAttachmentAnnotationIcon.PUSHPIN
    color: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.new_file_attachment_annotation_rectangle import NewFileAttachmentAnnotationRectangle # noqa: PLC0415
        subtype = self.subtype

        name = self.name

        page_index = self.page_index

        rectangle: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rectangle, Unset):
            rectangle = self.rectangle.to_dict()

        contents = self.contents

        author = self.author

        subject = self.subject

        icon: str | Unset = UNSET
        if not isinstance(self.icon, Unset):
            icon = self.icon.value


        color = self.color


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "subtype": subtype,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if rectangle is not UNSET:
            field_dict["rectangle"] = rectangle
        if contents is not UNSET:
            field_dict["contents"] = contents
        if author is not UNSET:
            field_dict["author"] = author
        if subject is not UNSET:
            field_dict["subject"] = subject
        if icon is not UNSET:
            field_dict["icon"] = icon
        if color is not UNSET:
            field_dict["color"] = color

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_file_attachment_annotation_rectangle import NewFileAttachmentAnnotationRectangle # noqa: PLC0415
        d = dict(src_dict)
        subtype = d.pop("subtype")

        name = d.pop("name", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        _rectangle = d.pop("rectangle", UNSET)
        rectangle: NewFileAttachmentAnnotationRectangle | Unset
        if isinstance(_rectangle,  Unset):
            rectangle = UNSET
        else:
            rectangle = NewFileAttachmentAnnotationRectangle.from_dict(_rectangle)




        contents = d.pop("contents", UNSET)

        author = d.pop("author", UNSET)

        subject = d.pop("subject", UNSET)

        _icon = d.pop("icon", UNSET)
        icon: NewFileAttachmentAnnotationIcon | Unset
        if isinstance(_icon,  Unset):
            icon = UNSET
        else:
            icon = NewFileAttachmentAnnotationIcon(_icon)




        color = d.pop("color", UNSET)

        new_file_attachment_annotation = cls(
            subtype=subtype,
            name=name,
            page_index=page_index,
            rectangle=rectangle,
            contents=contents,
            author=author,
            subject=subject,
            icon=icon,
            color=color,
        )

        return new_file_attachment_annotation

