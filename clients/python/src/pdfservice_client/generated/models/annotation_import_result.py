from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.annotation_model import AnnotationModel





T = TypeVar("T", bound="AnnotationImportResult")



@_attrs_define
class AnnotationImportResult:
    """ AnnotationsModel after the import (XML: <Annotations>), with the names created and updated and any warnings
    (elements not imported, links that could not be made)

        Attributes:
            annotations (list[AnnotationModel]):
            created (list[str]):
            updated (list[str]):
            warnings (list[str]):
     """

    annotations: list[AnnotationModel]
    created: list[str]
    updated: list[str]
    warnings: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.annotation_model import AnnotationModel # noqa: PLC0415
        annotations = []
        for annotations_item_data in self.annotations:
            annotations_item = annotations_item_data.to_dict()
            annotations.append(annotations_item)



        created = self.created



        updated = self.updated



        warnings = self.warnings




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "annotations": annotations,
            "created": created,
            "updated": updated,
            "warnings": warnings,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.annotation_model import AnnotationModel # noqa: PLC0415
        d = dict(src_dict)
        annotations = []
        _annotations = d.pop("annotations")
        for annotations_item_data in (_annotations):
            annotations_item = AnnotationModel.from_dict(annotations_item_data)



            annotations.append(annotations_item)


        created = cast(list[str], d.pop("created"))


        updated = cast(list[str], d.pop("updated"))


        warnings = cast(list[str], d.pop("warnings"))


        annotation_import_result = cls(
            annotations=annotations,
            created=created,
            updated=updated,
            warnings=warnings,
        )


        annotation_import_result.additional_properties = d
        return annotation_import_result

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
