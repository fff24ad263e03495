from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.password_permissions_model_encrypt_type import PasswordPermissionsModelEncryptType
from ..types import UNSET, Unset






T = TypeVar("T", bound="PasswordPermissionsModel")



@_attrs_define
class PasswordPermissionsModel:
    """ PasswordPermissions (XML: <PasswordPermissions>): the password security. Without encryption every flag is true.

        Attributes:
            encrypted (bool):
            open_password_set (bool): A password is needed to open the document (the user password is not empty)
            permissions_password_set (bool): The permissions (owner) password is not empty
            print_allowed (bool): Print (bit 3)
            print_high_resolution_allowed (bool): Print at full quality (bit 12; needs printAllowed; follows it with RC4-40)
            change_document_allowed (bool): Change the document other than by the flags below (bit 4)
            assemble_document_allowed (bool): Insert, rotate and delete pages, bookmarks, thumbnails (bit 11; follows
                changeDocumentAllowed with RC4-40)
            extract_text_allowed (bool): Copy or extract text and graphics (bit 5)
            extract_text_for_accessibility_allowed (bool): Extract text for accessibility (bit 10; follows
                extractTextAllowed with RC4-40)
            fill_form_fields_allowed (bool): Fill in form fields and sign (bit 9; follows modifyAnnotationsAllowed with
                RC4-40)
            modify_annotations_allowed (bool): Add and change annotations, fill in form fields (bit 6)
            encrypt_type (PasswordPermissionsModelEncryptType | Unset): 0 RC4-128 (revision 3), 1 AES-128 (revision 4), 2
                RC4-40 (revision 2), 3 AES-256 (revision 6); absent when the handler is not a password handler or its method is
                not one of these
            handler (str | Unset): The security handler (/Filter), "Standard" for passwords
            version (int | Unset): /V of the encryption dictionary
            revision (int | Unset): The handler's revision, /R
            key_length (int | Unset): Key length in bits
            permission_bits (int | Unset): The raw /P value (signed 32 bits)
            encrypt_metadata (bool | Unset): false when the XMP metadata is left unencrypted
            attachments_only (bool | Unset): Only embedded files are encrypted
     """

    encrypted: bool
    open_password_set: bool
    permissions_password_set: bool
    print_allowed: bool
    print_high_resolution_allowed: bool
    change_document_allowed: bool
    assemble_document_allowed: bool
    extract_text_allowed: bool
    extract_text_for_accessibility_allowed: bool
    fill_form_fields_allowed: bool
    modify_annotations_allowed: bool
    encrypt_type: PasswordPermissionsModelEncryptType | Unset = UNSET
    handler: str | Unset = UNSET
    version: int | Unset = UNSET
    revision: int | Unset = UNSET
    key_length: int | Unset = UNSET
    permission_bits: int | Unset = UNSET
    encrypt_metadata: bool | Unset = UNSET
    attachments_only: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        encrypted = self.encrypted

        open_password_set = self.open_password_set

        permissions_password_set = self.permissions_password_set

        print_allowed = self.print_allowed

        print_high_resolution_allowed = self.print_high_resolution_allowed

        change_document_allowed = self.change_document_allowed

        assemble_document_allowed = self.assemble_document_allowed

        extract_text_allowed = self.extract_text_allowed

        extract_text_for_accessibility_allowed = self.extract_text_for_accessibility_allowed

        fill_form_fields_allowed = self.fill_form_fields_allowed

        modify_annotations_allowed = self.modify_annotations_allowed

        encrypt_type: int | Unset = UNSET
        if not isinstance(self.encrypt_type, Unset):
            encrypt_type = self.encrypt_type.value


        handler = self.handler

        version = self.version

        revision = self.revision

        key_length = self.key_length

        permission_bits = self.permission_bits

        encrypt_metadata = self.encrypt_metadata

        attachments_only = self.attachments_only


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "encrypted": encrypted,
            "openPasswordSet": open_password_set,
            "permissionsPasswordSet": permissions_password_set,
            "printAllowed": print_allowed,
            "printHighResolutionAllowed": print_high_resolution_allowed,
            "changeDocumentAllowed": change_document_allowed,
            "assembleDocumentAllowed": assemble_document_allowed,
            "extractTextAllowed": extract_text_allowed,
            "extractTextForAccessibilityAllowed": extract_text_for_accessibility_allowed,
            "fillFormFieldsAllowed": fill_form_fields_allowed,
            "modifyAnnotationsAllowed": modify_annotations_allowed,
        })
        if encrypt_type is not UNSET:
            field_dict["encryptType"] = encrypt_type
        if handler is not UNSET:
            field_dict["handler"] = handler
        if version is not UNSET:
            field_dict["version"] = version
        if revision is not UNSET:
            field_dict["revision"] = revision
        if key_length is not UNSET:
            field_dict["keyLength"] = key_length
        if permission_bits is not UNSET:
            field_dict["permissionBits"] = permission_bits
        if encrypt_metadata is not UNSET:
            field_dict["encryptMetadata"] = encrypt_metadata
        if attachments_only is not UNSET:
            field_dict["attachmentsOnly"] = attachments_only

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        encrypted = d.pop("encrypted")

        open_password_set = d.pop("openPasswordSet")

        permissions_password_set = d.pop("permissionsPasswordSet")

        print_allowed = d.pop("printAllowed")

        print_high_resolution_allowed = d.pop("printHighResolutionAllowed")

        change_document_allowed = d.pop("changeDocumentAllowed")

        assemble_document_allowed = d.pop("assembleDocumentAllowed")

        extract_text_allowed = d.pop("extractTextAllowed")

        extract_text_for_accessibility_allowed = d.pop("extractTextForAccessibilityAllowed")

        fill_form_fields_allowed = d.pop("fillFormFieldsAllowed")

        modify_annotations_allowed = d.pop("modifyAnnotationsAllowed")

        _encrypt_type = d.pop("encryptType", UNSET)
        encrypt_type: PasswordPermissionsModelEncryptType | Unset
        if isinstance(_encrypt_type,  Unset):
            encrypt_type = UNSET
        else:
            encrypt_type = PasswordPermissionsModelEncryptType(_encrypt_type)




        handler = d.pop("handler", UNSET)

        version = d.pop("version", UNSET)

        revision = d.pop("revision", UNSET)

        key_length = d.pop("keyLength", UNSET)

        permission_bits = d.pop("permissionBits", UNSET)

        encrypt_metadata = d.pop("encryptMetadata", UNSET)

        attachments_only = d.pop("attachmentsOnly", UNSET)

        password_permissions_model = cls(
            encrypted=encrypted,
            open_password_set=open_password_set,
            permissions_password_set=permissions_password_set,
            print_allowed=print_allowed,
            print_high_resolution_allowed=print_high_resolution_allowed,
            change_document_allowed=change_document_allowed,
            assemble_document_allowed=assemble_document_allowed,
            extract_text_allowed=extract_text_allowed,
            extract_text_for_accessibility_allowed=extract_text_for_accessibility_allowed,
            fill_form_fields_allowed=fill_form_fields_allowed,
            modify_annotations_allowed=modify_annotations_allowed,
            encrypt_type=encrypt_type,
            handler=handler,
            version=version,
            revision=revision,
            key_length=key_length,
            permission_bits=permission_bits,
            encrypt_metadata=encrypt_metadata,
            attachments_only=attachments_only,
        )


        password_permissions_model.additional_properties = d
        return password_permissions_model

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
