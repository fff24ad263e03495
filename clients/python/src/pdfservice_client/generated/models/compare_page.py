from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.compare_page_status import ComparePageStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.compare_word import CompareWord
  from ..models.visual_change import VisualChange





T = TypeVar("T", bound="ComparePage")



@_attrs_define
class ComparePage:
    """ 
        Attributes:
            status (ComparePageStatus):
            moved (bool): Paired out of order: the page moved from basePageIndex to pageIndex
            inserted_words (list[CompareWord]): Words of the document's page not in the base's (boxes on the document's
                page)
            deleted_words (list[CompareWord]): Words of the base's page not in the document's (boxes on the base's page)
            visual_changes (list[VisualChange]): Regions whose pixels differ, in user space of the document's page
            page_index (int | Unset): The document's page, from 0; absent for a deleted page
            base_page_index (int | Unset): The base's page, from 0; absent for an inserted page
            similarity (float | Unset): 1 for pages that draw the same objects; else the share of words in common that
                paired them
     """

    status: ComparePageStatus
    moved: bool
    inserted_words: list[CompareWord]
    deleted_words: list[CompareWord]
    visual_changes: list[VisualChange]
    page_index: int | Unset = UNSET
    base_page_index: int | Unset = UNSET
    similarity: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.compare_word import CompareWord # noqa: PLC0415
        from ..models.visual_change import VisualChange # noqa: PLC0415
        status = self.status.value

        moved = self.moved

        inserted_words = []
        for inserted_words_item_data in self.inserted_words:
            inserted_words_item = inserted_words_item_data.to_dict()
            inserted_words.append(inserted_words_item)



        deleted_words = []
        for deleted_words_item_data in self.deleted_words:
            deleted_words_item = deleted_words_item_data.to_dict()
            deleted_words.append(deleted_words_item)



        visual_changes = []
        for visual_changes_item_data in self.visual_changes:
            visual_changes_item = visual_changes_item_data.to_dict()
            visual_changes.append(visual_changes_item)



        page_index = self.page_index

        base_page_index = self.base_page_index

        similarity = self.similarity


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "moved": moved,
            "insertedWords": inserted_words,
            "deletedWords": deleted_words,
            "visualChanges": visual_changes,
        })
        if page_index is not UNSET:
            field_dict["pageIndex"] = page_index
        if base_page_index is not UNSET:
            field_dict["basePageIndex"] = base_page_index
        if similarity is not UNSET:
            field_dict["similarity"] = similarity

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.compare_word import CompareWord # noqa: PLC0415
        from ..models.visual_change import VisualChange # noqa: PLC0415
        d = dict(src_dict)
        status = ComparePageStatus(d.pop("status"))




        moved = d.pop("moved")

        inserted_words = []
        _inserted_words = d.pop("insertedWords")
        for inserted_words_item_data in (_inserted_words):
            inserted_words_item = CompareWord.from_dict(inserted_words_item_data)



            inserted_words.append(inserted_words_item)


        deleted_words = []
        _deleted_words = d.pop("deletedWords")
        for deleted_words_item_data in (_deleted_words):
            deleted_words_item = CompareWord.from_dict(deleted_words_item_data)



            deleted_words.append(deleted_words_item)


        visual_changes = []
        _visual_changes = d.pop("visualChanges")
        for visual_changes_item_data in (_visual_changes):
            visual_changes_item = VisualChange.from_dict(visual_changes_item_data)



            visual_changes.append(visual_changes_item)


        page_index = d.pop("pageIndex", UNSET)

        base_page_index = d.pop("basePageIndex", UNSET)

        similarity = d.pop("similarity", UNSET)

        compare_page = cls(
            status=status,
            moved=moved,
            inserted_words=inserted_words,
            deleted_words=deleted_words,
            visual_changes=visual_changes,
            page_index=page_index,
            base_page_index=base_page_index,
            similarity=similarity,
        )


        compare_page.additional_properties = d
        return compare_page

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
