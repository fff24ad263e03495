from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_optimize_action_profile import ActionStepOptimizeActionProfile





T = TypeVar("T", bound="ActionStepOptimizeAction")



@_attrs_define
class ActionStepOptimizeAction:
    """ Makes the document smaller by an optimize profile (profileName, or an inline profile): images above 1.5 times the
    target resolution downsampled, colour spaces converted and images re-encoded per the profile, each kept when the new
    one is not smaller; unused resources removed, fonts subset, duplicate images and fonts merged, object streams and
    maximum Flate. Encryption is kept (the password is needed, and the permission to change); a signed document is
    refused (409 DOCUMENT_SIGNED). The answer's report gives the sizes before and after, per category. When the result
    would not be smaller nothing is written and the answer is 200 with report.changed false. See docs/optimize.md.

        Attributes:
            profile_name (str | Unset): The optimize profile to apply, built-in (screen, ebook, printer, prepress, lossless)
                or user-defined; exactly one of profileName and profile
            profile (ActionStepOptimizeActionProfile | Unset): The settings to apply, given inline (as an optimize profile's
                body); exactly one of profileName and profile
     """

    profile_name: str | Unset = UNSET
    profile: ActionStepOptimizeActionProfile | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_optimize_action_profile import ActionStepOptimizeActionProfile # noqa: PLC0415
        profile_name = self.profile_name

        profile: dict[str, Any] | Unset = UNSET
        if not isinstance(self.profile, Unset):
            profile = self.profile.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if profile_name is not UNSET:
            field_dict["profileName"] = profile_name
        if profile is not UNSET:
            field_dict["profile"] = profile

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_optimize_action_profile import ActionStepOptimizeActionProfile # noqa: PLC0415
        d = dict(src_dict)
        profile_name = d.pop("profileName", UNSET)

        _profile = d.pop("profile", UNSET)
        profile: ActionStepOptimizeActionProfile | Unset
        if isinstance(_profile,  Unset):
            profile = UNSET
        else:
            profile = ActionStepOptimizeActionProfile.from_dict(_profile)




        action_step_optimize_action = cls(
            profile_name=profile_name,
            profile=profile,
        )

        return action_step_optimize_action

