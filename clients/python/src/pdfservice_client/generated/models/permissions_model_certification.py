from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.permissions_model_certification_level import PermissionsModelCertificationLevel
from ..types import UNSET, Unset






T = TypeVar("T", bound="PermissionsModelCertification")



@_attrs_define
class PermissionsModelCertification:
    """ Certification (a DocMDP signature, /Perms /DocMDP)

        Attributes:
            certified (bool):
            level (PermissionsModelCertificationLevel | Unset): 1 no changes, 2 form fill-in and signing, 3 as 2 plus
                annotations
     """

    certified: bool
    level: PermissionsModelCertificationLevel | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        certified = self.certified

        level: int | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = self.level.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "certified": certified,
        })
        if level is not UNSET:
            field_dict["level"] = level

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        certified = d.pop("certified")

        _level = d.pop("level", UNSET)
        level: PermissionsModelCertificationLevel | Unset
        if isinstance(_level,  Unset):
            level = UNSET
        else:
            level = PermissionsModelCertificationLevel(_level)




        permissions_model_certification = cls(
            certified=certified,
            level=level,
        )


        permissions_model_certification.additional_properties = d
        return permissions_model_certification

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
