from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.password_permissions_model import PasswordPermissionsModel
  from ..models.permissions_model_certification import PermissionsModelCertification
  from ..models.permissions_model_usage_rights import PermissionsModelUsageRights





T = TypeVar("T", bound="PermissionsModel")



@_attrs_define
class PermissionsModel:
    """ PermissionsModel (XML: <Permissions>): password security, usage rights, certification.

        Attributes:
            password_permissions (PasswordPermissionsModel): PasswordPermissions (XML: <PasswordPermissions>): the password
                security. Without encryption every flag is true.
            usage_rights (PermissionsModelUsageRights): Usage rights (Adobe's UR3 signature, /Perms /UR3 or the older /UR)
                and what they grant, by category
            certification (PermissionsModelCertification): Certification (a DocMDP signature, /Perms /DocMDP)
     """

    password_permissions: PasswordPermissionsModel
    usage_rights: PermissionsModelUsageRights
    certification: PermissionsModelCertification
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.password_permissions_model import PasswordPermissionsModel # noqa: PLC0415
        from ..models.permissions_model_certification import PermissionsModelCertification # noqa: PLC0415
        from ..models.permissions_model_usage_rights import PermissionsModelUsageRights # noqa: PLC0415
        password_permissions = self.password_permissions.to_dict()

        usage_rights = self.usage_rights.to_dict()

        certification = self.certification.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "passwordPermissions": password_permissions,
            "usageRights": usage_rights,
            "certification": certification,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.password_permissions_model import PasswordPermissionsModel # noqa: PLC0415
        from ..models.permissions_model_certification import PermissionsModelCertification # noqa: PLC0415
        from ..models.permissions_model_usage_rights import PermissionsModelUsageRights # noqa: PLC0415
        d = dict(src_dict)
        password_permissions = PasswordPermissionsModel.from_dict(d.pop("passwordPermissions"))




        usage_rights = PermissionsModelUsageRights.from_dict(d.pop("usageRights"))




        certification = PermissionsModelCertification.from_dict(d.pop("certification"))




        permissions_model = cls(
            password_permissions=password_permissions,
            usage_rights=usage_rights,
            certification=certification,
        )


        permissions_model.additional_properties = d
        return permissions_model

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
