from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_optimize_action_profile_color_image_handler_color_space import ActionStepOptimizeActionProfileColorImageHandlerColorSpace
from ..models.action_step_optimize_action_profile_color_image_handler_compression import ActionStepOptimizeActionProfileColorImageHandlerCompression
from ..models.action_step_optimize_action_profile_color_image_handler_downsampling import ActionStepOptimizeActionProfileColorImageHandlerDownsampling
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepOptimizeActionProfileColorImageHandler")



@_attrs_define
class ActionStepOptimizeActionProfileColorImageHandler:
    """ Colour images (RGB, CMYK, Lab, ICC-based with 3 or more components, indexed colour). Absent: colour images are not
    changed.

        Attributes:
            color_space (ActionStepOptimizeActionProfileColorImageHandlerColorSpace | Unset): Colour space to convert to: 0
                keep: the image keeps its colour space (ICC-based ones included); 1 RGB (DeviceRGB, or sRGB ICC where the image
                had an ICC profile); 2 gray (DeviceGray); 3 CMYK (DeviceCMYK) Default:
                ActionStepOptimizeActionProfileColorImageHandlerColorSpace.VALUE_0.
            compression (ActionStepOptimizeActionProfileColorImageHandlerCompression | Unset): Compression: 0 keep: the
                image keeps its filter (re-encoded in it only when it is downsampled or converted); 1 JPEG (DCTDecode), at
                jpegQuality; lossy; 2 Flate (lossless) Default:
                ActionStepOptimizeActionProfileColorImageHandlerCompression.VALUE_0.
            dpi (int | Unset): Target resolution in pixels per inch (0 to 2400; default 0: no downsampling). An image is
                downsampled only when its effective resolution on the page, from the transform it is drawn with, exceeds 1.5
                times this (Ghostscript's threshold).  Default: 0.
            downsampling (ActionStepOptimizeActionProfileColorImageHandlerDownsampling | Unset): How images are downsampled:
                0 average: each target pixel is the mean of the source pixels it covers; 1 bicubic: interpolated, sharper edges,
                slower; 2 subsample: the source pixel at the centre (bi-level images, where averaging would make gray). Default
                0 Default: ActionStepOptimizeActionProfileColorImageHandlerDownsampling.VALUE_0.
            jpeg_quality (float | Unset): JPEG quality from 0 (smallest) to 1 (best), as IJG quality / 100; used with
                compression 1 (default 0.75) Default: 0.75.
     """

    color_space: ActionStepOptimizeActionProfileColorImageHandlerColorSpace | Unset = ActionStepOptimizeActionProfileColorImageHandlerColorSpace.VALUE_0
    compression: ActionStepOptimizeActionProfileColorImageHandlerCompression | Unset = ActionStepOptimizeActionProfileColorImageHandlerCompression.VALUE_0
    dpi: int | Unset = 0
    downsampling: ActionStepOptimizeActionProfileColorImageHandlerDownsampling | Unset = ActionStepOptimizeActionProfileColorImageHandlerDownsampling.VALUE_0
    jpeg_quality: float | Unset = 0.75





    def to_dict(self) -> dict[str, Any]:
        color_space: int | Unset = UNSET
        if not isinstance(self.color_space, Unset):
            color_space = self.color_space.value


        compression: int | Unset = UNSET
        if not isinstance(self.compression, Unset):
            compression = self.compression.value


        dpi = self.dpi

        downsampling: int | Unset = UNSET
        if not isinstance(self.downsampling, Unset):
            downsampling = self.downsampling.value


        jpeg_quality = self.jpeg_quality


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if color_space is not UNSET:
            field_dict["colorSpace"] = color_space
        if compression is not UNSET:
            field_dict["compression"] = compression
        if dpi is not UNSET:
            field_dict["dpi"] = dpi
        if downsampling is not UNSET:
            field_dict["downsampling"] = downsampling
        if jpeg_quality is not UNSET:
            field_dict["jpegQuality"] = jpeg_quality

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _color_space = d.pop("colorSpace", UNSET)
        color_space: ActionStepOptimizeActionProfileColorImageHandlerColorSpace | Unset
        if isinstance(_color_space,  Unset):
            color_space = UNSET
        else:
            color_space = ActionStepOptimizeActionProfileColorImageHandlerColorSpace(_color_space)




        _compression = d.pop("compression", UNSET)
        compression: ActionStepOptimizeActionProfileColorImageHandlerCompression | Unset
        if isinstance(_compression,  Unset):
            compression = UNSET
        else:
            compression = ActionStepOptimizeActionProfileColorImageHandlerCompression(_compression)




        dpi = d.pop("dpi", UNSET)

        _downsampling = d.pop("downsampling", UNSET)
        downsampling: ActionStepOptimizeActionProfileColorImageHandlerDownsampling | Unset
        if isinstance(_downsampling,  Unset):
            downsampling = UNSET
        else:
            downsampling = ActionStepOptimizeActionProfileColorImageHandlerDownsampling(_downsampling)




        jpeg_quality = d.pop("jpegQuality", UNSET)

        action_step_optimize_action_profile_color_image_handler = cls(
            color_space=color_space,
            compression=compression,
            dpi=dpi,
            downsampling=downsampling,
            jpeg_quality=jpeg_quality,
        )

        return action_step_optimize_action_profile_color_image_handler

