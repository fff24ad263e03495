from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.optimize_profile_model import OptimizeProfileModel





T = TypeVar("T", bound="OptimizeProfilesModel")



@_attrs_define
class OptimizeProfilesModel:
    """ OptimizeProfilesModel (XML: <OptimizeProfiles> holding one <OptimizeProfile> each): the built-in profiles, then the
    others by name.

        Attributes:
            profiles (list[OptimizeProfileModel]):
     """

    profiles: list[OptimizeProfileModel]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.optimize_profile_model import OptimizeProfileModel # noqa: PLC0415
        profiles = []
        for profiles_item_data in self.profiles:
            profiles_item = profiles_item_data.to_dict()
            profiles.append(profiles_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "profiles": profiles,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.optimize_profile_model import OptimizeProfileModel # noqa: PLC0415
        d = dict(src_dict)
        profiles = []
        _profiles = d.pop("profiles")
        for profiles_item_data in (_profiles):
            profiles_item = OptimizeProfileModel.from_dict(profiles_item_data)



            profiles.append(profiles_item)


        optimize_profiles_model = cls(
            profiles=profiles,
        )


        optimize_profiles_model.additional_properties = d
        return optimize_profiles_model

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
