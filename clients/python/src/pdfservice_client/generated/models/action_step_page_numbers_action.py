from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_page_numbers_action_font_style import ActionStepPageNumbersActionFontStyle
from ..models.action_step_page_numbers_action_position import ActionStepPageNumbersActionPosition
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepPageNumbersAction")



@_attrs_define
class ActionStepPageNumbersAction:
    """ Numbers the pages (all, or pageRange) from startNumber: format ("Page {n} of {total}") between prefix and suffix,
    {n} zero-padded to digits (Bates numbers), at a corner or the middle of the top or bottom edge of the page as shown,
    margin points in, upright however the page is turned. Fonts as TextStampAction. With documents, a set numbered as
    one sequence (Bates numbers across documents), each in place, all or nothing. The report gives the pages numbered,
    the first and last labels and the last number (with documents: each document's too). See docs/page-numbers.md.

        Attributes:
            format_ (str | Unset): The text of each number: {n} is the page's number, {total} the last number given ("Page
                {n} of {total}"); \\n starts a new line Default: '{n}'.
            prefix (str | Unset): Text before the format (Bates: "ACME-") Default: ''.
            suffix (str | Unset): Text after the format Default: ''.
            digits (int | Unset): {n} is zero-padded to this many digits (Bates: 6 gives 000001) Default: 1.
            start_number (int | Unset): The number of the first numbered page Default: 1.
            position (ActionStepPageNumbersActionPosition | Unset): Where on the page as shown (crop box, /Rotate applied)
                the number goes Default: ActionStepPageNumbersActionPosition.BOTTOM_CENTER.
            margin (float | Unset): Points between the edge of the page as shown and the number Default: 36.0.
            page_range (str | Unset): The pages numbered, 1-based, as in a print dialog: "2-" skips a cover (default, when
                absent: every page; empty is 400). Numbered in document order.
            font_name (str | Unset): One of Helvetica, Helvetica-Bold, Helvetica-Oblique, Helvetica-BoldOblique, Times-
                Roman, Times-Bold, Times-Italic, Times-BoldItalic, Courier, Courier-Bold, Courier-Oblique, Courier-BoldOblique,
                Symbol, ZapfDingbats, DejaVuSans, DejaVuSerif, DejaVuSansMono (case does not matter) Default: 'Helvetica'.
            font_style (ActionStepPageNumbersActionFontStyle | Unset): Added to the style the font name has Default:
                ActionStepPageNumbersActionFontStyle.PLAIN.
            font_size (float | Unset): Points Default: 12.0.
            color (int | Unset): Fill colour as an integer 0xRRGGBB (black by default) Default: 0.
            transparency (float | Unset): 0 opaque (default) to 1 invisible; or give opacity instead
            opacity (float | Unset): 1 opaque (default) to 0 invisible: 1 - transparency; not together with transparency
     """

    format_: str | Unset = '{n}'
    prefix: str | Unset = ''
    suffix: str | Unset = ''
    digits: int | Unset = 1
    start_number: int | Unset = 1
    position: ActionStepPageNumbersActionPosition | Unset = ActionStepPageNumbersActionPosition.BOTTOM_CENTER
    margin: float | Unset = 36.0
    page_range: str | Unset = UNSET
    font_name: str | Unset = 'Helvetica'
    font_style: ActionStepPageNumbersActionFontStyle | Unset = ActionStepPageNumbersActionFontStyle.PLAIN
    font_size: float | Unset = 12.0
    color: int | Unset = 0
    transparency: float | Unset = UNSET
    opacity: float | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        prefix = self.prefix

        suffix = self.suffix

        digits = self.digits

        start_number = self.start_number

        position: str | Unset = UNSET
        if not isinstance(self.position, Unset):
            position = self.position.value


        margin = self.margin

        page_range = self.page_range

        font_name = self.font_name

        font_style: str | Unset = UNSET
        if not isinstance(self.font_style, Unset):
            font_style = self.font_style.value


        font_size = self.font_size

        color = self.color

        transparency = self.transparency

        opacity = self.opacity


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if format_ is not UNSET:
            field_dict["format"] = format_
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if suffix is not UNSET:
            field_dict["suffix"] = suffix
        if digits is not UNSET:
            field_dict["digits"] = digits
        if start_number is not UNSET:
            field_dict["startNumber"] = start_number
        if position is not UNSET:
            field_dict["position"] = position
        if margin is not UNSET:
            field_dict["margin"] = margin
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if font_name is not UNSET:
            field_dict["fontName"] = font_name
        if font_style is not UNSET:
            field_dict["fontStyle"] = font_style
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if color is not UNSET:
            field_dict["color"] = color
        if transparency is not UNSET:
            field_dict["transparency"] = transparency
        if opacity is not UNSET:
            field_dict["opacity"] = opacity

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        format_ = d.pop("format", UNSET)

        prefix = d.pop("prefix", UNSET)

        suffix = d.pop("suffix", UNSET)

        digits = d.pop("digits", UNSET)

        start_number = d.pop("startNumber", UNSET)

        _position = d.pop("position", UNSET)
        position: ActionStepPageNumbersActionPosition | Unset
        if isinstance(_position,  Unset):
            position = UNSET
        else:
            position = ActionStepPageNumbersActionPosition(_position)




        margin = d.pop("margin", UNSET)

        page_range = d.pop("pageRange", UNSET)

        font_name = d.pop("fontName", UNSET)

        _font_style = d.pop("fontStyle", UNSET)
        font_style: ActionStepPageNumbersActionFontStyle | Unset
        if isinstance(_font_style,  Unset):
            font_style = UNSET
        else:
            font_style = ActionStepPageNumbersActionFontStyle(_font_style)




        font_size = d.pop("fontSize", UNSET)

        color = d.pop("color", UNSET)

        transparency = d.pop("transparency", UNSET)

        opacity = d.pop("opacity", UNSET)

        action_step_page_numbers_action = cls(
            format_=format_,
            prefix=prefix,
            suffix=suffix,
            digits=digits,
            start_number=start_number,
            position=position,
            margin=margin,
            page_range=page_range,
            font_name=font_name,
            font_style=font_style,
            font_size=font_size,
            color=color,
            transparency=transparency,
            opacity=opacity,
        )

        return action_step_page_numbers_action

