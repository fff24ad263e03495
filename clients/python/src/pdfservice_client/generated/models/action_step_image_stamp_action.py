from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepImageStampAction")



@_attrs_define
class ActionStepImageStampAction:
    """ Stamps an image (multipart: this JSON in part "pageAction", a JPEG or PNG in part "file") on a page (pageIndex) or
    on every page: its lower-left corner at (x, y) in the page's default user space, turned rotation degrees counter-
    clockwise about that corner; width and/or height in points, or scale of its natural size (its own resolution, else
    72 dpi). See docs/stamps.md.

        Attributes:
            x (float): Points from the origin of the page's default user space (unrotated, as the page's MediaBox counts)
            y (float): Points upwards from the origin of the page's default user space
            rotation (float | Unset): Degrees, counter-clockwise, about (x, y) Default: 0.0.
            transparency (float | Unset): 0 opaque (default) to 1 invisible; or give opacity instead
            opacity (float | Unset): 1 opaque (default) to 0 invisible: 1 - transparency; not together with transparency
            page_index (int | Unset): Zero-based page to stamp; absent or -1: every page
            width (float | Unset): Points; alone, the height follows the aspect ratio
            height (float | Unset): Points; alone, the width follows the aspect ratio
            scale (float | Unset): Of the natural size (1 by default); not with width or height
     """

    x: float
    y: float
    rotation: float | Unset = 0.0
    transparency: float | Unset = UNSET
    opacity: float | Unset = UNSET
    page_index: int | Unset = UNSET
    width: float | Unset = UNSET
    height: float | Unset = UNSET
    scale: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        x = self.x

        y = self.y

        rotation = self.rotation

        transparency = self.transparency

        opacity = self.opacity

        page_index = self.page_index

        width = self.width

        height = self.height

        scale = self.scale


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "x": x,
            "y": y,
        })
        if rotation is not UNSET:
            field_dict["rotation"] = rotation
        if transparency is not UNSET:
            field_dict["transparency"] = transparency
        if opacity is not UNSET:
            field_dict["opacity"] = opacity
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if width is not UNSET:
            field_dict["width"] = width
        if height is not UNSET:
            field_dict["height"] = height
        if scale is not UNSET:
            field_dict["scale"] = scale

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        x = d.pop("x")

        y = d.pop("y")

        rotation = d.pop("rotation", UNSET)

        transparency = d.pop("transparency", UNSET)

        opacity = d.pop("opacity", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        width = d.pop("width", UNSET)

        height = d.pop("height", UNSET)

        scale = d.pop("scale", UNSET)

        action_step_image_stamp_action = cls(
            x=x,
            y=y,
            rotation=rotation,
            transparency=transparency,
            opacity=opacity,
            page_index=page_index,
            width=width,
            height=height,
            scale=scale,
        )

        return action_step_image_stamp_action

