from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.optimize_profile_model_bw_image_handler import OptimizeProfileModelBwImageHandler
  from ..models.optimize_profile_model_color_image_handler import OptimizeProfileModelColorImageHandler
  from ..models.optimize_profile_model_gray_image_handler import OptimizeProfileModelGrayImageHandler





T = TypeVar("T", bound="OptimizeProfileModel")



@_attrs_define
class OptimizeProfileModel:
    """ OptimizeProfileModel (XML: <OptimizeProfile>): a profile's settings with its name; built-in profiles are read-only.

        Attributes:
            name (str): The profile name, as in its URL
            built_in (bool): A built-in profile (screen, ebook, printer, prepress, lossless): read-only
            discard_annotations (bool): Remove every annotation except links and form fields (default false) Default: False.
            discard_unused_resources (bool): Remove fonts, images and other resources no page, annotation or form uses
                (default true) Default: True.
            merge_duplicate_fonts (bool): Keep one copy of fonts embedded more than once, and subset embedded fonts to the
                glyphs used (default true) Default: True.
            merge_duplicate_images (bool): Keep one copy of identical images (default true) Default: True.
            compress_objects_into_streams (bool): Write objects into compressed object streams (PDF 1.5), with maximum Flate
                (default true) Default: True.
            color_image_handler (OptimizeProfileModelColorImageHandler | Unset): Colour images (RGB, CMYK, Lab, ICC-based
                with 3 or more components, indexed colour). Absent: colour images are not changed.
            gray_image_handler (OptimizeProfileModelGrayImageHandler | Unset): Gray images (one component, 2 to 16 bits).
                Absent: gray images are not changed.
            bw_image_handler (OptimizeProfileModelBwImageHandler | Unset): Bi-level images (1 bit per pixel) and stencil
                masks. Absent: bi-level images are not changed.
            created_at (datetime.datetime | Unset): When the profile was created (user-defined profiles only)
            updated_at (datetime.datetime | Unset): When it was last replaced (user-defined profiles only)
     """

    name: str
    built_in: bool
    discard_annotations: bool = False
    discard_unused_resources: bool = True
    merge_duplicate_fonts: bool = True
    merge_duplicate_images: bool = True
    compress_objects_into_streams: bool = True
    color_image_handler: OptimizeProfileModelColorImageHandler | Unset = UNSET
    gray_image_handler: OptimizeProfileModelGrayImageHandler | Unset = UNSET
    bw_image_handler: OptimizeProfileModelBwImageHandler | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.optimize_profile_model_bw_image_handler import OptimizeProfileModelBwImageHandler # noqa: PLC0415
        from ..models.optimize_profile_model_color_image_handler import OptimizeProfileModelColorImageHandler # noqa: PLC0415
        from ..models.optimize_profile_model_gray_image_handler import OptimizeProfileModelGrayImageHandler # noqa: PLC0415
        name = self.name

        built_in = self.built_in

        discard_annotations = self.discard_annotations

        discard_unused_resources = self.discard_unused_resources

        merge_duplicate_fonts = self.merge_duplicate_fonts

        merge_duplicate_images = self.merge_duplicate_images

        compress_objects_into_streams = self.compress_objects_into_streams

        color_image_handler: dict[str, Any] | Unset = UNSET
        if not isinstance(self.color_image_handler, Unset):
            color_image_handler = self.color_image_handler.to_dict()

        gray_image_handler: dict[str, Any] | Unset = UNSET
        if not isinstance(self.gray_image_handler, Unset):
            gray_image_handler = self.gray_image_handler.to_dict()

        bw_image_handler: dict[str, Any] | Unset = UNSET
        if not isinstance(self.bw_image_handler, Unset):
            bw_image_handler = self.bw_image_handler.to_dict()

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "builtIn": built_in,
            "discardAnnotations": discard_annotations,
            "discardUnusedResources": discard_unused_resources,
            "mergeDuplicateFonts": merge_duplicate_fonts,
            "mergeDuplicateImages": merge_duplicate_images,
            "compressObjectsIntoStreams": compress_objects_into_streams,
        })
        if color_image_handler is not UNSET:
            field_dict["colorImageHandler"] = color_image_handler
        if gray_image_handler is not UNSET:
            field_dict["grayImageHandler"] = gray_image_handler
        if bw_image_handler is not UNSET:
            field_dict["bwImageHandler"] = bw_image_handler
        if created_at is not UNSET:
            field_dict["createdAt"] = created_at
        if updated_at is not UNSET:
            field_dict["updatedAt"] = updated_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.optimize_profile_model_bw_image_handler import OptimizeProfileModelBwImageHandler # noqa: PLC0415
        from ..models.optimize_profile_model_color_image_handler import OptimizeProfileModelColorImageHandler # noqa: PLC0415
        from ..models.optimize_profile_model_gray_image_handler import OptimizeProfileModelGrayImageHandler # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        built_in = d.pop("builtIn")

        discard_annotations = d.pop("discardAnnotations")

        discard_unused_resources = d.pop("discardUnusedResources")

        merge_duplicate_fonts = d.pop("mergeDuplicateFonts")

        merge_duplicate_images = d.pop("mergeDuplicateImages")

        compress_objects_into_streams = d.pop("compressObjectsIntoStreams")

        _color_image_handler = d.pop("colorImageHandler", UNSET)
        color_image_handler: OptimizeProfileModelColorImageHandler | Unset
        if isinstance(_color_image_handler,  Unset):
            color_image_handler = UNSET
        else:
            color_image_handler = OptimizeProfileModelColorImageHandler.from_dict(_color_image_handler)




        _gray_image_handler = d.pop("grayImageHandler", UNSET)
        gray_image_handler: OptimizeProfileModelGrayImageHandler | Unset
        if isinstance(_gray_image_handler,  Unset):
            gray_image_handler = UNSET
        else:
            gray_image_handler = OptimizeProfileModelGrayImageHandler.from_dict(_gray_image_handler)




        _bw_image_handler = d.pop("bwImageHandler", UNSET)
        bw_image_handler: OptimizeProfileModelBwImageHandler | Unset
        if isinstance(_bw_image_handler,  Unset):
            bw_image_handler = UNSET
        else:
            bw_image_handler = OptimizeProfileModelBwImageHandler.from_dict(_bw_image_handler)




        _created_at = d.pop("createdAt", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at,  Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)




        _updated_at = d.pop("updatedAt", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at,  Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)




        optimize_profile_model = cls(
            name=name,
            built_in=built_in,
            discard_annotations=discard_annotations,
            discard_unused_resources=discard_unused_resources,
            merge_duplicate_fonts=merge_duplicate_fonts,
            merge_duplicate_images=merge_duplicate_images,
            compress_objects_into_streams=compress_objects_into_streams,
            color_image_handler=color_image_handler,
            gray_image_handler=gray_image_handler,
            bw_image_handler=bw_image_handler,
            created_at=created_at,
            updated_at=updated_at,
        )


        optimize_profile_model.additional_properties = d
        return optimize_profile_model

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
