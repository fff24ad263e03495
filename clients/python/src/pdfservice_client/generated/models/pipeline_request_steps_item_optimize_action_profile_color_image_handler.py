from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.pipeline_request_steps_item_optimize_action_profile_color_image_handler_color_space import PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace
from ..models.pipeline_request_steps_item_optimize_action_profile_color_image_handler_compression import PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression
from ..models.pipeline_request_steps_item_optimize_action_profile_color_image_handler_downsampling import PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling
from ..types import UNSET, Unset






T = TypeVar("T", bound="PipelineRequestStepsItemOptimizeActionProfileColorImageHandler")



@_attrs_define
class PipelineRequestStepsItemOptimizeActionProfileColorImageHandler:
    """ Colour images (RGB, CMYK, Lab, ICC-based with 3 or more components, indexed colour). Absent: colour images are not
    changed.

        Attributes:
            color_space (PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace | Unset): Colour space to
                convert to: 0 keep: the image keeps its colour space (ICC-based ones included); 1 RGB (DeviceRGB, or sRGB ICC
                where the image had an ICC profile); 2 gray (DeviceGray); 3 CMYK (DeviceCMYK) Default:
                PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace.VALUE_0.
            compression (PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression | Unset): Compression: 0
                keep: the image keeps its filter (re-encoded in it only when it is downsampled or converted); 1 JPEG
                (DCTDecode), at jpegQuality; lossy; 2 Flate (lossless) Default:
                PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression.VALUE_0.
            dpi (int | Unset): Target resolution in pixels per inch (0 to 2400; default 0: no downsampling). An image is
                downsampled only when its effective resolution on the page, from the transform it is drawn with, exceeds 1.5
                times this (Ghostscript's threshold).  Default: 0.
            downsampling (PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling | Unset): How images
                are downsampled: 0 average: each target pixel is the mean of the source pixels it covers; 1 bicubic:
                interpolated, sharper edges, slower; 2 subsample: the source pixel at the centre (bi-level images, where
                averaging would make gray). Default 0 Default:
                PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling.VALUE_0.
            jpeg_quality (float | Unset): JPEG quality from 0 (smallest) to 1 (best), as IJG quality / 100; used with
                compression 1 (default 0.75) Default: 0.75.
     """

    color_space: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace | Unset = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace.VALUE_0
    compression: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression | Unset = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression.VALUE_0
    dpi: int | Unset = 0
    downsampling: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling | Unset = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling.VALUE_0
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
        color_space: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace | Unset
        if isinstance(_color_space,  Unset):
            color_space = UNSET
        else:
            color_space = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerColorSpace(_color_space)




        _compression = d.pop("compression", UNSET)
        compression: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression | Unset
        if isinstance(_compression,  Unset):
            compression = UNSET
        else:
            compression = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerCompression(_compression)




        dpi = d.pop("dpi", UNSET)

        _downsampling = d.pop("downsampling", UNSET)
        downsampling: PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling | Unset
        if isinstance(_downsampling,  Unset):
            downsampling = UNSET
        else:
            downsampling = PipelineRequestStepsItemOptimizeActionProfileColorImageHandlerDownsampling(_downsampling)




        jpeg_quality = d.pop("jpegQuality", UNSET)

        pipeline_request_steps_item_optimize_action_profile_color_image_handler = cls(
            color_space=color_space,
            compression=compression,
            dpi=dpi,
            downsampling=downsampling,
            jpeg_quality=jpeg_quality,
        )

        return pipeline_request_steps_item_optimize_action_profile_color_image_handler

