from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.annotation_model_border_effect import AnnotationModelBorderEffect
from ..models.annotation_model_border_style import AnnotationModelBorderStyle
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AnnotationModelBorder")



@_attrs_define
class AnnotationModelBorder:
    """ 
        Attributes:
            width (float | Unset):
            style (AnnotationModelBorderStyle | Unset):
            dashes (list[float] | Unset):
            effect (AnnotationModelBorderEffect | Unset):
            intensity (float | Unset):
     """

    width: float | Unset = UNSET
    style: AnnotationModelBorderStyle | Unset = UNSET
    dashes: list[float] | Unset = UNSET
    effect: AnnotationModelBorderEffect | Unset = UNSET
    intensity: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        width = self.width

        style: str | Unset = UNSET
        if not isinstance(self.style, Unset):
            style = self.style.value


        dashes: list[float] | Unset = UNSET
        if not isinstance(self.dashes, Unset):
            dashes = self.dashes



        effect: str | Unset = UNSET
        if not isinstance(self.effect, Unset):
            effect = self.effect.value


        intensity = self.intensity


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if width is not UNSET:
            field_dict["width"] = width
        if style is not UNSET:
            field_dict["style"] = style
        if dashes is not UNSET:
            field_dict["dashes"] = dashes
        if effect is not UNSET:
            field_dict["effect"] = effect
        if intensity is not UNSET:
            field_dict["intensity"] = intensity

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        width = d.pop("width", UNSET)

        _style = d.pop("style", UNSET)
        style: AnnotationModelBorderStyle | Unset
        if isinstance(_style,  Unset):
            style = UNSET
        else:
            style = AnnotationModelBorderStyle(_style)




        dashes = cast(list[float], d.pop("dashes", UNSET))


        _effect = d.pop("effect", UNSET)
        effect: AnnotationModelBorderEffect | Unset
        if isinstance(_effect,  Unset):
            effect = UNSET
        else:
            effect = AnnotationModelBorderEffect(_effect)




        intensity = d.pop("intensity", UNSET)

        annotation_model_border = cls(
            width=width,
            style=style,
            dashes=dashes,
            effect=effect,
            intensity=intensity,
        )


        annotation_model_border.additional_properties = d
        return annotation_model_border

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
