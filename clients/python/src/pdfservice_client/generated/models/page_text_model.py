from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.page_text_model_blocks_item import PageTextModelBlocksItem
  from ..models.page_text_model_lines_item import PageTextModelLinesItem
  from ..models.page_text_model_words_item import PageTextModelWordsItem





T = TypeVar("T", bound="PageTextModel")



@_attrs_define
class PageTextModel:
    """ PageTextModel (XML: <PageText>, with <words><word>, <lines><line> or <blocks><block>). text: the page in reading
    order, each line ending in "\\n", each block followed by an empty line. With ?detail=, the words (runs of non-
    whitespace within a line), lines or blocks with their boxes.

        Attributes:
            page_index (int):
            text (str):
            words (list[PageTextModelWordsItem] | Unset):
            lines (list[PageTextModelLinesItem] | Unset):
            blocks (list[PageTextModelBlocksItem] | Unset):
     """

    page_index: int
    text: str
    words: list[PageTextModelWordsItem] | Unset = UNSET
    lines: list[PageTextModelLinesItem] | Unset = UNSET
    blocks: list[PageTextModelBlocksItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.page_text_model_blocks_item import PageTextModelBlocksItem # noqa: PLC0415
        from ..models.page_text_model_lines_item import PageTextModelLinesItem # noqa: PLC0415
        from ..models.page_text_model_words_item import PageTextModelWordsItem # noqa: PLC0415
        page_index = self.page_index

        text = self.text

        words: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.words, Unset):
            words = []
            for words_item_data in self.words:
                words_item = words_item_data.to_dict()
                words.append(words_item)



        lines: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.lines, Unset):
            lines = []
            for lines_item_data in self.lines:
                lines_item = lines_item_data.to_dict()
                lines.append(lines_item)



        blocks: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.blocks, Unset):
            blocks = []
            for blocks_item_data in self.blocks:
                blocks_item = blocks_item_data.to_dict()
                blocks.append(blocks_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pageIndex": page_index,
            "text": text,
        })
        if words is not UNSET:
            field_dict["words"] = words
        if lines is not UNSET:
            field_dict["lines"] = lines
        if blocks is not UNSET:
            field_dict["blocks"] = blocks

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.page_text_model_blocks_item import PageTextModelBlocksItem # noqa: PLC0415
        from ..models.page_text_model_lines_item import PageTextModelLinesItem # noqa: PLC0415
        from ..models.page_text_model_words_item import PageTextModelWordsItem # noqa: PLC0415
        d = dict(src_dict)
        page_index = d.pop("pageIndex")

        text = d.pop("text")

        _words = d.pop("words", UNSET)
        words: list[PageTextModelWordsItem] | Unset = UNSET
        if _words is not UNSET:
            words = []
            for words_item_data in _words:
                words_item = PageTextModelWordsItem.from_dict(words_item_data)



                words.append(words_item)


        _lines = d.pop("lines", UNSET)
        lines: list[PageTextModelLinesItem] | Unset = UNSET
        if _lines is not UNSET:
            lines = []
            for lines_item_data in _lines:
                lines_item = PageTextModelLinesItem.from_dict(lines_item_data)



                lines.append(lines_item)


        _blocks = d.pop("blocks", UNSET)
        blocks: list[PageTextModelBlocksItem] | Unset = UNSET
        if _blocks is not UNSET:
            blocks = []
            for blocks_item_data in _blocks:
                blocks_item = PageTextModelBlocksItem.from_dict(blocks_item_data)



                blocks.append(blocks_item)


        page_text_model = cls(
            page_index=page_index,
            text=text,
            words=words,
            lines=lines,
            blocks=blocks,
        )


        page_text_model.additional_properties = d
        return page_text_model

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
