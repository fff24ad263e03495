from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.password_permissions_request_encrypt_type import PasswordPermissionsRequestEncryptType
from ..types import UNSET, Unset






T = TypeVar("T", bound="PasswordPermissionsRequest")



@_attrs_define
class PasswordPermissionsRequest:
    """ PasswordPermissions (XML: <PasswordPermissions>) to write. encryptType defaults to 3 (AES-256); an omitted flag is
    allowed. permissionsPassword is required and must differ from openPassword; openPassword may be empty (the document
    then opens without one).

        Attributes:
            permissions_password (str): The owner password (required, not empty; no control characters but tab, LF and CR)
            encrypt_type (PasswordPermissionsRequestEncryptType | Unset): 0 RC4-128 (revision 3), 1 AES-128 (revision 4), 2
                RC4-40 (revision 2), 3 AES-256 (revision 6)
            open_password (str | Unset): The user password; empty or absent: none
            print_allowed (bool | Unset): Print (bit 3)
            print_high_resolution_allowed (bool | Unset): Print at full quality (bit 12; needs printAllowed; follows it with
                RC4-40)
            change_document_allowed (bool | Unset): Change the document other than by the flags below (bit 4)
            assemble_document_allowed (bool | Unset): Insert, rotate and delete pages, bookmarks, thumbnails (bit 11;
                follows changeDocumentAllowed with RC4-40)
            extract_text_allowed (bool | Unset): Copy or extract text and graphics (bit 5)
            extract_text_for_accessibility_allowed (bool | Unset): Extract text for accessibility (bit 10; follows
                extractTextAllowed with RC4-40)
            fill_form_fields_allowed (bool | Unset): Fill in form fields and sign (bit 9; follows modifyAnnotationsAllowed
                with RC4-40)
            modify_annotations_allowed (bool | Unset): Add and change annotations, fill in form fields (bit 6)
     """

    permissions_password: str
    encrypt_type: PasswordPermissionsRequestEncryptType | Unset = UNSET
    open_password: str | Unset = UNSET
    print_allowed: bool | Unset = UNSET
    print_high_resolution_allowed: bool | Unset = UNSET
    change_document_allowed: bool | Unset = UNSET
    assemble_document_allowed: bool | Unset = UNSET
    extract_text_allowed: bool | Unset = UNSET
    extract_text_for_accessibility_allowed: bool | Unset = UNSET
    fill_form_fields_allowed: bool | Unset = UNSET
    modify_annotations_allowed: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        permissions_password = self.permissions_password

        encrypt_type: int | Unset = UNSET
        if not isinstance(self.encrypt_type, Unset):
            encrypt_type = self.encrypt_type.value


        open_password = self.open_password

        print_allowed = self.print_allowed

        print_high_resolution_allowed = self.print_high_resolution_allowed

        change_document_allowed = self.change_document_allowed

        assemble_document_allowed = self.assemble_document_allowed

        extract_text_allowed = self.extract_text_allowed

        extract_text_for_accessibility_allowed = self.extract_text_for_accessibility_allowed

        fill_form_fields_allowed = self.fill_form_fields_allowed

        modify_annotations_allowed = self.modify_annotations_allowed


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "permissionsPassword": permissions_password,
        })
        if encrypt_type is not UNSET:
            field_dict["encryptType"] = encrypt_type
        if open_password is not UNSET:
            field_dict["openPassword"] = open_password
        if print_allowed is not UNSET:
            field_dict["printAllowed"] = print_allowed
        if print_high_resolution_allowed is not UNSET:
            field_dict["printHighResolutionAllowed"] = print_high_resolution_allowed
        if change_document_allowed is not UNSET:
            field_dict["changeDocumentAllowed"] = change_document_allowed
        if assemble_document_allowed is not UNSET:
            field_dict["assembleDocumentAllowed"] = assemble_document_allowed
        if extract_text_allowed is not UNSET:
            field_dict["extractTextAllowed"] = extract_text_allowed
        if extract_text_for_accessibility_allowed is not UNSET:
            field_dict["extractTextForAccessibilityAllowed"] = extract_text_for_accessibility_allowed
        if fill_form_fields_allowed is not UNSET:
            field_dict["fillFormFieldsAllowed"] = fill_form_fields_allowed
        if modify_annotations_allowed is not UNSET:
            field_dict["modifyAnnotationsAllowed"] = modify_annotations_allowed

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        permissions_password = d.pop("permissionsPassword")

        _encrypt_type = d.pop("encryptType", UNSET)
        encrypt_type: PasswordPermissionsRequestEncryptType | Unset
        if isinstance(_encrypt_type,  Unset):
            encrypt_type = UNSET
        else:
            encrypt_type = PasswordPermissionsRequestEncryptType(_encrypt_type)




        open_password = d.pop("openPassword", UNSET)

        print_allowed = d.pop("printAllowed", UNSET)

        print_high_resolution_allowed = d.pop("printHighResolutionAllowed", UNSET)

        change_document_allowed = d.pop("changeDocumentAllowed", UNSET)

        assemble_document_allowed = d.pop("assembleDocumentAllowed", UNSET)

        extract_text_allowed = d.pop("extractTextAllowed", UNSET)

        extract_text_for_accessibility_allowed = d.pop("extractTextForAccessibilityAllowed", UNSET)

        fill_form_fields_allowed = d.pop("fillFormFieldsAllowed", UNSET)

        modify_annotations_allowed = d.pop("modifyAnnotationsAllowed", UNSET)

        password_permissions_request = cls(
            permissions_password=permissions_password,
            encrypt_type=encrypt_type,
            open_password=open_password,
            print_allowed=print_allowed,
            print_high_resolution_allowed=print_high_resolution_allowed,
            change_document_allowed=change_document_allowed,
            assemble_document_allowed=assemble_document_allowed,
            extract_text_allowed=extract_text_allowed,
            extract_text_for_accessibility_allowed=extract_text_for_accessibility_allowed,
            fill_form_fields_allowed=fill_form_fields_allowed,
            modify_annotations_allowed=modify_annotations_allowed,
        )

        return password_permissions_request

