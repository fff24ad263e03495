from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PermissionsModelUsageRights")



@_attrs_define
class PermissionsModelUsageRights:
    """ Usage rights (Adobe's UR3 signature, /Perms /UR3 or the older /UR) and what they grant, by category

        Attributes:
            present (bool):
            document (list[str] | Unset): Document rights, e.g. FullSave
            annotations (list[str] | Unset): Annots rights, e.g. Create, Delete, Modify, Import, Export
            form (list[str] | Unset): Form rights, e.g. FillIn, Import, Export, SpawnTemplate
            signature (list[str] | Unset): Signature rights, e.g. Modify
            embedded_files (list[str] | Unset): EF rights, e.g. Create, Delete, Modify, Import
            form_ex (list[str] | Unset): FormEx rights, e.g. BarcodePlaintext
            message (str | Unset): The message a viewer shows (/Msg)
            restricted (bool | Unset): /P true: further restrictions apply
     """

    present: bool
    document: list[str] | Unset = UNSET
    annotations: list[str] | Unset = UNSET
    form: list[str] | Unset = UNSET
    signature: list[str] | Unset = UNSET
    embedded_files: list[str] | Unset = UNSET
    form_ex: list[str] | Unset = UNSET
    message: str | Unset = UNSET
    restricted: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        present = self.present

        document: list[str] | Unset = UNSET
        if not isinstance(self.document, Unset):
            document = self.document



        annotations: list[str] | Unset = UNSET
        if not isinstance(self.annotations, Unset):
            annotations = self.annotations



        form: list[str] | Unset = UNSET
        if not isinstance(self.form, Unset):
            form = self.form



        signature: list[str] | Unset = UNSET
        if not isinstance(self.signature, Unset):
            signature = self.signature



        embedded_files: list[str] | Unset = UNSET
        if not isinstance(self.embedded_files, Unset):
            embedded_files = self.embedded_files



        form_ex: list[str] | Unset = UNSET
        if not isinstance(self.form_ex, Unset):
            form_ex = self.form_ex



        message = self.message

        restricted = self.restricted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "present": present,
        })
        if document is not UNSET:
            field_dict["document"] = document
        if annotations is not UNSET:
            field_dict["annotations"] = annotations
        if form is not UNSET:
            field_dict["form"] = form
        if signature is not UNSET:
            field_dict["signature"] = signature
        if embedded_files is not UNSET:
            field_dict["embeddedFiles"] = embedded_files
        if form_ex is not UNSET:
            field_dict["formEx"] = form_ex
        if message is not UNSET:
            field_dict["message"] = message
        if restricted is not UNSET:
            field_dict["restricted"] = restricted

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        present = d.pop("present")

        document = cast(list[str], d.pop("document", UNSET))


        annotations = cast(list[str], d.pop("annotations", UNSET))


        form = cast(list[str], d.pop("form", UNSET))


        signature = cast(list[str], d.pop("signature", UNSET))


        embedded_files = cast(list[str], d.pop("embeddedFiles", UNSET))


        form_ex = cast(list[str], d.pop("formEx", UNSET))


        message = d.pop("message", UNSET)

        restricted = d.pop("restricted", UNSET)

        permissions_model_usage_rights = cls(
            present=present,
            document=document,
            annotations=annotations,
            form=form,
            signature=signature,
            embedded_files=embedded_files,
            form_ex=form_ex,
            message=message,
            restricted=restricted,
        )


        permissions_model_usage_rights.additional_properties = d
        return permissions_model_usage_rights

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
