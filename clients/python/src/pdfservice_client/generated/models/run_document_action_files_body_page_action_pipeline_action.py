from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.run_document_action_files_body_page_action_pipeline_action_naming_mode import RunDocumentActionFilesBodyPageActionPipelineActionNamingMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="RunDocumentActionFilesBodyPageActionPipelineAction")



@_attrs_define
class RunDocumentActionFilesBodyPageActionPipelineAction:
    """ Runs a stored pipeline (name; owner for one shared by another user; version, else the newest) on the document: its
    steps one after the other, the document written once at the end as one new version (or at savePath). All steps or
    none: a step that fails leaves the document as it was, and the problem (PIPELINE_STEP_FAILED) names the step and
    carries its own problem. A job when a step is long by nature. See docs/pipelines.md.

        Attributes:
            name (str): The pipeline to run (GET /pipelines lists those the caller sees)
            save_path (str | Unset): Path of the output document ("folder/name.pdf"); absent: the original is replaced.
                Folders are created.
            naming_mode (RunDocumentActionFilesBodyPageActionPipelineActionNamingMode | Unset): When savePath exists: 0 fail
                with 409 (default), 1 overwrite, 2 append a random number to the name. Default:
                RunDocumentActionFilesBodyPageActionPipelineActionNamingMode.VALUE_0.
            owner (str | Unset): Whose pipeline: absent, the caller's own; another user's when it is shared (or the caller
                is an admin)
            version (int | Unset): The pipeline version to run; absent: the newest
     """

    name: str
    save_path: str | Unset = UNSET
    naming_mode: RunDocumentActionFilesBodyPageActionPipelineActionNamingMode | Unset = RunDocumentActionFilesBodyPageActionPipelineActionNamingMode.VALUE_0
    owner: str | Unset = UNSET
    version: int | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        save_path = self.save_path

        naming_mode: int | Unset = UNSET
        if not isinstance(self.naming_mode, Unset):
            naming_mode = self.naming_mode.value


        owner = self.owner

        version = self.version


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if save_path is not UNSET:
            field_dict["savePath"] = save_path
        if naming_mode is not UNSET:
            field_dict["namingMode"] = naming_mode
        if owner is not UNSET:
            field_dict["owner"] = owner
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        save_path = d.pop("savePath", UNSET)

        _naming_mode = d.pop("namingMode", UNSET)
        naming_mode: RunDocumentActionFilesBodyPageActionPipelineActionNamingMode | Unset
        if isinstance(_naming_mode,  Unset):
            naming_mode = UNSET
        else:
            naming_mode = RunDocumentActionFilesBodyPageActionPipelineActionNamingMode(_naming_mode)




        owner = d.pop("owner", UNSET)

        version = d.pop("version", UNSET)

        run_document_action_files_body_page_action_pipeline_action = cls(
            name=name,
            save_path=save_path,
            naming_mode=naming_mode,
            owner=owner,
            version=version,
        )

        return run_document_action_files_body_page_action_pipeline_action

