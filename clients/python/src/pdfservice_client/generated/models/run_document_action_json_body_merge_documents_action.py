from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_document_action_json_body_merge_documents_action_naming_mode import RunDocumentActionJsonBodyMergeDocumentsActionNamingMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.run_document_action_json_body_merge_documents_action_sources_item import RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem





T = TypeVar("T", bound="RunDocumentActionJsonBodyMergeDocumentsAction")



@_attrs_define
class RunDocumentActionJsonBodyMergeDocumentsAction:
    """ Merges this document (first) and the documents of sources, in order, each with its pageRange, into a new document at
    savePath (required): a bookmark per source with its bookmarks under it, links and named destinations kept (clashing
    names get "_2", ...), form fields renamed on collision, optionally a table of contents in front. At most 999
    sources. The answer's report gives each source's start page.

        Attributes:
            save_path (str): Path of the output document ("folder/name.pdf"); absent: the original is replaced. Folders are
                created.
            sources (list[RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem]): The documents that follow the one
                posted to, in order (1 to 999): each a stored document, with its pages and password
            naming_mode (RunDocumentActionJsonBodyMergeDocumentsActionNamingMode | Unset): When savePath exists: 0 fail with
                409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunDocumentActionJsonBodyMergeDocumentsActionNamingMode.VALUE_0.
            page_range (str | Unset): Pages of the document posted to (the first source) to take, in this order (default:
                all); 1-based, as in a print dialog: "1-3,7,10-"; not empty.
            bookmarks (bool | Unset): A bookmark per source (its Title, else its file name) with its own bookmarks under it;
                false: the sources' bookmarks one after another at the top level Default: True.
            table_of_contents (bool | Unset): A table of contents in front: each source's title and start page, linked to it
                Default: False.
     """

    save_path: str
    sources: list[RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem]
    naming_mode: RunDocumentActionJsonBodyMergeDocumentsActionNamingMode | Unset = RunDocumentActionJsonBodyMergeDocumentsActionNamingMode.VALUE_0
    page_range: str | Unset = UNSET
    bookmarks: bool | Unset = True
    table_of_contents: bool | Unset = False





    def to_dict(self) -> dict[str, Any]:
        from ..models.run_document_action_json_body_merge_documents_action_sources_item import RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem # noqa: PLC0415
        save_path = self.save_path

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)



        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        page_range = self.page_range

        bookmarks = self.bookmarks

        table_of_contents = self.table_of_contents


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "savePath": save_path,
            "sources": sources,
        })
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if page_range is not UNSET:
            field_dict["pageRange"] = page_range
        if bookmarks is not UNSET:
            field_dict["bookmarks"] = bookmarks
        if table_of_contents is not UNSET:
            field_dict["tableOfContents"] = table_of_contents

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.run_document_action_json_body_merge_documents_action_sources_item import RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem # noqa: PLC0415
        d = dict(src_dict)
        save_path = d.pop("savePath")

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in (_sources):
            sources_item = RunDocumentActionJsonBodyMergeDocumentsActionSourcesItem.from_dict(sources_item_data)



            sources.append(sources_item)


        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunDocumentActionJsonBodyMergeDocumentsActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunDocumentActionJsonBodyMergeDocumentsActionNamingMode(_naming_mode)




        page_range = d.pop("pageRange", UNSET)

        bookmarks = d.pop("bookmarks", UNSET)

        table_of_contents = d.pop("tableOfContents", UNSET)

        run_document_action_json_body_merge_documents_action = cls(
            save_path=save_path,
            sources=sources,
            naming_mode=naming_mode,
            page_range=page_range,
            bookmarks=bookmarks,
            table_of_contents=table_of_contents,
        )

        return run_document_action_json_body_merge_documents_action

