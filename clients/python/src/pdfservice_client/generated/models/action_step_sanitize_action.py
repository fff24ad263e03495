from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_sanitize_action_annotation_subtypes_item import ActionStepSanitizeActionAnnotationSubtypesItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ActionStepSanitizeAction")



@_attrs_define
class ActionStepSanitizeAction:
    """ Removes JavaScript, embedded files, actions that reach outside the document, form submit and reset actions, metadata
    and hidden layers (both off by default) and annotations of chosen subtypes; rewrites the file in full, re-reads it
    and verifies that none of it remains (422 SANITIZE_INCOMPLETE otherwise, nothing written). The report counts what
    was removed of each kind. See docs/sanitize.md.

        Attributes:
            javascript (bool | Unset): Remove JavaScript: document, page, annotation and field actions (/OpenAction, /AA,
                /A), the JavaScript name tree, chained actions Default: True.
            embedded_files (bool | Unset): Remove embedded files: the EmbeddedFiles name tree, /AF, the files of file
                specifications (/EF, /RF), file attachment annotations Default: True.
            outside_links (bool | Unset): Remove actions that reach outside the document: URI, Launch, GoToR, GoToE,
                ImportData, SubmitForm (links left with no action go); internal links are kept Default: True.
            form_actions (bool | Unset): Remove form submit and reset actions (SubmitForm, ResetForm) Default: True.
            metadata (bool | Unset): Remove metadata: the document information dictionary, the XMP packet and every object's
                /Metadata, /PieceInfo Default: False.
            hidden_content (bool | Unset): Remove the content of layers (optional content groups) hidden in the default
                configuration: their marked content in pages and form XObjects, and their annotations Default: False.
            annotation_subtypes (list[ActionStepSanitizeActionAnnotationSubtypesItem] | Unset): Remove the annotations of
                these subtypes (with their popups)
     """

    javascript: bool | Unset = True
    embedded_files: bool | Unset = True
    outside_links: bool | Unset = True
    form_actions: bool | Unset = True
    metadata: bool | Unset = False
    hidden_content: bool | Unset = False
    annotation_subtypes: list[ActionStepSanitizeActionAnnotationSubtypesItem] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        javascript = self.javascript

        embedded_files = self.embedded_files

        outside_links = self.outside_links

        form_actions = self.form_actions

        metadata = self.metadata

        hidden_content = self.hidden_content

        annotation_subtypes: list[str] | Unset = UNSET
        if not isinstance(self.annotation_subtypes, Unset):
            annotation_subtypes = []
            for annotation_subtypes_item_data in self.annotation_subtypes:
                annotation_subtypes_item = annotation_subtypes_item_data.value
                annotation_subtypes.append(annotation_subtypes_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if javascript is not UNSET:
            field_dict["javascript"] = javascript
        if embedded_files is not UNSET:
            field_dict["embeddedFiles"] = embedded_files
        if outside_links is not UNSET:
            field_dict["outsideLinks"] = outside_links
        if form_actions is not UNSET:
            field_dict["formActions"] = form_actions
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if hidden_content is not UNSET:
            field_dict["hiddenContent"] = hidden_content
        if annotation_subtypes is not UNSET:
            field_dict["annotationSubtypes"] = annotation_subtypes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        javascript = d.pop("javascript", UNSET)

        embedded_files = d.pop("embeddedFiles", UNSET)

        outside_links = d.pop("outsideLinks", UNSET)

        form_actions = d.pop("formActions", UNSET)

        metadata = d.pop("metadata", UNSET)

        hidden_content = d.pop("hiddenContent", UNSET)

        _annotation_subtypes = d.pop("annotationSubtypes", UNSET)
        annotation_subtypes: list[ActionStepSanitizeActionAnnotationSubtypesItem] | Unset = UNSET
        if _annotation_subtypes is not UNSET:
            annotation_subtypes = []
            for annotation_subtypes_item_data in _annotation_subtypes:
                annotation_subtypes_item = ActionStepSanitizeActionAnnotationSubtypesItem(annotation_subtypes_item_data)



                annotation_subtypes.append(annotation_subtypes_item)


        action_step_sanitize_action = cls(
            javascript=javascript,
            embedded_files=embedded_files,
            outside_links=outside_links,
            form_actions=form_actions,
            metadata=metadata,
            hidden_content=hidden_content,
            annotation_subtypes=annotation_subtypes,
        )

        return action_step_sanitize_action

