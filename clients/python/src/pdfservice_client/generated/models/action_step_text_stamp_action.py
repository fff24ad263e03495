from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_text_stamp_action_font_style import ActionStepTextStampActionFontStyle
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepTextStampAction")



@_attrs_define
class ActionStepTextStampAction:
    """ Stamps text on a page (pageIndex) or on every page: the first line's baseline starts at (x, y) in the page's default
    user space, turned rotation degrees counter-clockwise about that point; lines are split at \\n. Characters the font
    lacks are drawn with the shipped DejaVu fonts or the CJK font. See docs/stamps.md.

        Attributes:
            text (str): The text; \\n starts a new line
            x (float): Points from the origin of the page's default user space (unrotated, as the page's MediaBox counts)
            y (float): Points upwards from the origin of the page's default user space
            rotation (float | Unset): Degrees, counter-clockwise, about (x, y) Default: 0.0.
            transparency (float | Unset): 0 opaque (default) to 1 invisible; or give opacity instead
            opacity (float | Unset): 1 opaque (default) to 0 invisible: 1 - transparency; not together with transparency
            page_index (int | Unset): Zero-based page to stamp; absent or -1: every page
            font_name (str | Unset): One of Helvetica, Helvetica-Bold, Helvetica-Oblique, Helvetica-BoldOblique, Times-
                Roman, Times-Bold, Times-Italic, Times-BoldItalic, Courier, Courier-Bold, Courier-Oblique, Courier-BoldOblique,
                Symbol, ZapfDingbats, DejaVuSans, DejaVuSerif, DejaVuSansMono (case does not matter) Default: 'Helvetica'.
            font_style (ActionStepTextStampActionFontStyle | Unset): Added to the style the font name has Default:
                ActionStepTextStampActionFontStyle.PLAIN.
            font_size (float | Unset): Points Default: 12.0.
            color (int | Unset): Fill colour as an integer 0xRRGGBB (black by default) Default: 0.
     """

    text: str
    x: float
    y: float
    rotation: float | Unset = 0.0
    transparency: float | Unset = UNSET
    opacity: float | Unset = UNSET
    page_index: int | Unset = UNSET
    font_name: str | Unset = 'Helvetica'
    font_style: ActionStepTextStampActionFontStyle | Unset = ActionStepTextStampActionFontStyle.PLAIN
    font_size: float | Unset = 12.0
    color: int | Unset = 0





    def to_dict(self) -> dict[str, Any]:
        text = self.text

        x = self.x

        y = self.y

        rotation = self.rotation

        transparency = self.transparency

        opacity = self.opacity

        page_index = self.page_index

        font_name = self.font_name

        font_style: str | Unset = UNSET
        if not isinstance(self.font_style, Unset):
            font_style = self.font_style.value


        font_size = self.font_size

        color = self.color


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
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
        if font_name is not UNSET:
            field_dict["fontName"] = font_name
        if font_style is not UNSET:
            field_dict["fontStyle"] = font_style
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if color is not UNSET:
            field_dict["color"] = color

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        x = d.pop("x")

        y = d.pop("y")

        rotation = d.pop("rotation", UNSET)

        transparency = d.pop("transparency", UNSET)

        opacity = d.pop("opacity", UNSET)

        page_index = d.pop("pageIndex", UNSET)

        font_name = d.pop("fontName", UNSET)

        _font_style = d.pop("fontStyle", UNSET)
        font_style: ActionStepTextStampActionFontStyle | Unset
        if isinstance(_font_style,  Unset):
            font_style = UNSET
        else:
            font_style = ActionStepTextStampActionFontStyle(_font_style)




        font_size = d.pop("fontSize", UNSET)

        color = d.pop("color", UNSET)

        action_step_text_stamp_action = cls(
            text=text,
            x=x,
            y=y,
            rotation=rotation,
            transparency=transparency,
            opacity=opacity,
            page_index=page_index,
            font_name=font_name,
            font_style=font_style,
            font_size=font_size,
            color=color,
        )

        return action_step_text_stamp_action

