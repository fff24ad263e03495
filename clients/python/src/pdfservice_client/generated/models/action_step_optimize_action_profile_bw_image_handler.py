from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.action_step_optimize_action_profile_bw_image_handler_color_space import ActionStepOptimizeActionProfileBwImageHandlerColorSpace
from ..models.action_step_optimize_action_profile_bw_image_handler_compression import ActionStepOptimizeActionProfileBwImageHandlerCompression
from ..models.action_step_optimize_action_profile_bw_image_handler_downsampling import ActionStepOptimizeActionProfileBwImageHandlerDownsampling
from ..types import UNSET, Unset






T = TypeVar("T", bound="ActionStepOptimizeActionProfileBwImageHandler")



@_attrs_define
class ActionStepOptimizeActionProfileBwImageHandler:
    """ Bi-level images (1 bit per pixel) and stencil masks. Absent: bi-level images are not changed.

        Attributes:
            color_space (ActionStepOptimizeActionProfileBwImageHandlerColorSpace | Unset): Colour space: 0 keep: the image
                keeps its colour space (ICC-based ones included); 4 bi-level (1 bit per pixel, black and white) (0 keeps the
                colour space and the decode array; 4 writes an image as 1-bit DeviceGray with its decode applied, 0 black; a
                stencil mask stays a mask with either) Default: ActionStepOptimizeActionProfileBwImageHandlerColorSpace.VALUE_0.
            compression (ActionStepOptimizeActionProfileBwImageHandlerCompression | Unset): Compression: 0 keep: the image
                keeps its filter (re-encoded in it only when it is downsampled or converted); 2 Flate (lossless); 4 CCITT Group
                4 (lossless; bi-level images only) Default: ActionStepOptimizeActionProfileBwImageHandlerCompression.VALUE_0.
            dpi (int | Unset): Target resolution in pixels per inch (0 to 2400; default 0: no downsampling). An image is
                downsampled only when its effective resolution on the page, from the transform it is drawn with, exceeds 1.5
                times this (Ghostscript's threshold). Scans of text usually keep 300 or more. Default: 0.
            downsampling (ActionStepOptimizeActionProfileBwImageHandlerDownsampling | Unset): How images are downsampled: 0
                average: each target pixel is the mean of the source pixels it covers; 1 bicubic: interpolated, sharper edges,
                slower; 2 subsample: the source pixel at the centre (bi-level images, where averaging would make gray). Default
                2 Default: ActionStepOptimizeActionProfileBwImageHandlerDownsampling.VALUE_2.
     """

    color_space: ActionStepOptimizeActionProfileBwImageHandlerColorSpace | Unset = ActionStepOptimizeActionProfileBwImageHandlerColorSpace.VALUE_0
    compression: ActionStepOptimizeActionProfileBwImageHandlerCompression | Unset = ActionStepOptimizeActionProfileBwImageHandlerCompression.VALUE_0
    dpi: int | Unset = 0
    downsampling: ActionStepOptimizeActionProfileBwImageHandlerDownsampling | Unset = ActionStepOptimizeActionProfileBwImageHandlerDownsampling.VALUE_2





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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _color_space = d.pop("colorSpace", UNSET)
        color_space: ActionStepOptimizeActionProfileBwImageHandlerColorSpace | Unset
        if isinstance(_color_space,  Unset):
            color_space = UNSET
        else:
            color_space = ActionStepOptimizeActionProfileBwImageHandlerColorSpace(_color_space)




        _compression = d.pop("compression", UNSET)
        compression: ActionStepOptimizeActionProfileBwImageHandlerCompression | Unset
        if isinstance(_compression,  Unset):
            compression = UNSET
        else:
            compression = ActionStepOptimizeActionProfileBwImageHandlerCompression(_compression)




        dpi = d.pop("dpi", UNSET)

        _downsampling = d.pop("downsampling", UNSET)
        downsampling: ActionStepOptimizeActionProfileBwImageHandlerDownsampling | Unset
        if isinstance(_downsampling,  Unset):
            downsampling = UNSET
        else:
            downsampling = ActionStepOptimizeActionProfileBwImageHandlerDownsampling(_downsampling)




        action_step_optimize_action_profile_bw_image_handler = cls(
            color_space=color_space,
            compression=compression,
            dpi=dpi,
            downsampling=downsampling,
        )

        return action_step_optimize_action_profile_bw_image_handler

