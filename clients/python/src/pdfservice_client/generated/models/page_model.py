from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.page_model_rotation import PageModelRotation
from typing import cast

if TYPE_CHECKING:
  from ..models.rectangle import Rectangle





T = TypeVar("T", bound="PageModel")



@_attrs_define
class PageModel:
    """ PageModel (XML: <page>). width and height are the crop box as displayed: after rotation, in points (times /UserUnit
    when the page sets one). mediaBox and cropBox are in PDF user space, unrotated; cropBox is the crop box in effect
    (clipped to the media box).

        Attributes:
            page_index (int):
            width (float): Points, as displayed (after rotation)
            height (float): Points, as displayed (after rotation)
            rotation (PageModelRotation): /Rotate (inherited), clockwise, rounded to a quarter turn as the renderer does
            media_box (Rectangle): PDF user space, points, origin at the lower left of the page
            crop_box (Rectangle): PDF user space, points, origin at the lower left of the page
            annotation_count (int): Entries of /Annots that are annotations, Popup, Link and Widget included: as many as GET
                .../annotations?pageIndex= lists
     """

    page_index: int
    width: float
    height: float
    rotation: PageModelRotation
    media_box: Rectangle
    crop_box: Rectangle
    annotation_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        page_index = self.page_index

        width = self.width

        height = self.height

        rotation = self.rotation.value

        media_box = self.media_box.to_dict()

        crop_box = self.crop_box.to_dict()

        annotation_count = self.annotation_count


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pageIndex": page_index,
            "width": width,
            "height": height,
            "rotation": rotation,
            "mediaBox": media_box,
            "cropBox": crop_box,
            "annotationCount": annotation_count,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rectangle import Rectangle # noqa: PLC0415
        d = dict(src_dict)
        page_index = d.pop("pageIndex")

        width = d.pop("width")

        height = d.pop("height")

        rotation = PageModelRotation(d.pop("rotation"))




        media_box = Rectangle.from_dict(d.pop("mediaBox"))




        crop_box = Rectangle.from_dict(d.pop("cropBox"))




        annotation_count = d.pop("annotationCount")

        page_model = cls(
            page_index=page_index,
            width=width,
            height=height,
            rotation=rotation,
            media_box=media_box,
            crop_box=crop_box,
            annotation_count=annotation_count,
        )


        page_model.additional_properties = d
        return page_model

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
