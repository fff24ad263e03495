from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.action_step_optimize_action_profile_bw_image_handler import ActionStepOptimizeActionProfileBwImageHandler
  from ..models.action_step_optimize_action_profile_color_image_handler import ActionStepOptimizeActionProfileColorImageHandler
  from ..models.action_step_optimize_action_profile_gray_image_handler import ActionStepOptimizeActionProfileGrayImageHandler





T = TypeVar("T", bound="ActionStepOptimizeActionProfile")



@_attrs_define
class ActionStepOptimizeActionProfile:
    """ The settings to apply, given inline (as an optimize profile's body); exactly one of profileName and profile

        Attributes:
            discard_annotations (bool | Unset): Remove every annotation except links and form fields (default false)
                Default: False.
            discard_unused_resources (bool | Unset): Remove fonts, images and other resources no page, annotation or form
                uses (default true) Default: True.
            merge_duplicate_fonts (bool | Unset): Keep one copy of fonts embedded more than once, and subset embedded fonts
                to the glyphs used (default true) Default: True.
            merge_duplicate_images (bool | Unset): Keep one copy of identical images (default true) Default: True.
            compress_objects_into_streams (bool | Unset): Write objects into compressed object streams (PDF 1.5), with
                maximum Flate (default true) Default: True.
            color_image_handler (ActionStepOptimizeActionProfileColorImageHandler | Unset): Colour images (RGB, CMYK, Lab,
                ICC-based with 3 or more components, indexed colour). Absent: colour images are not changed.
            gray_image_handler (ActionStepOptimizeActionProfileGrayImageHandler | Unset): Gray images (one component, 2 to
                16 bits). Absent: gray images are not changed.
            bw_image_handler (ActionStepOptimizeActionProfileBwImageHandler | Unset): Bi-level images (1 bit per pixel) and
                stencil masks. Absent: bi-level images are not changed.
     """

    discard_annotations: bool | Unset = False
    discard_unused_resources: bool | Unset = True
    merge_duplicate_fonts: bool | Unset = True
    merge_duplicate_images: bool | Unset = True
    compress_objects_into_streams: bool | Unset = True
    color_image_handler: ActionStepOptimizeActionProfileColorImageHandler | Unset = UNSET
    gray_image_handler: ActionStepOptimizeActionProfileGrayImageHandler | Unset = UNSET
    bw_image_handler: ActionStepOptimizeActionProfileBwImageHandler | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.action_step_optimize_action_profile_bw_image_handler import ActionStepOptimizeActionProfileBwImageHandler # noqa: PLC0415
        from ..models.action_step_optimize_action_profile_color_image_handler import ActionStepOptimizeActionProfileColorImageHandler # noqa: PLC0415
        from ..models.action_step_optimize_action_profile_gray_image_handler import ActionStepOptimizeActionProfileGrayImageHandler # noqa: PLC0415
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


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if discard_annotations is not UNSET:
            field_dict["discardAnnotations"] = discard_annotations
        if discard_unused_resources is not UNSET:
            field_dict["discardUnusedResources"] = discard_unused_resources
        if merge_duplicate_fonts is not UNSET:
            field_dict["mergeDuplicateFonts"] = merge_duplicate_fonts
        if merge_duplicate_images is not UNSET:
            field_dict["mergeDuplicateImages"] = merge_duplicate_images
        if compress_objects_into_streams is not UNSET:
            field_dict["compressObjectsIntoStreams"] = compress_objects_into_streams
        if color_image_handler is not UNSET:
            field_dict["colorImageHandler"] = color_image_handler
        if gray_image_handler is not UNSET:
            field_dict["grayImageHandler"] = gray_image_handler
        if bw_image_handler is not UNSET:
            field_dict["bwImageHandler"] = bw_image_handler

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.action_step_optimize_action_profile_bw_image_handler import ActionStepOptimizeActionProfileBwImageHandler # noqa: PLC0415
        from ..models.action_step_optimize_action_profile_color_image_handler import ActionStepOptimizeActionProfileColorImageHandler # noqa: PLC0415
        from ..models.action_step_optimize_action_profile_gray_image_handler import ActionStepOptimizeActionProfileGrayImageHandler # noqa: PLC0415
        d = dict(src_dict)
        discard_annotations = d.pop("discardAnnotations", UNSET)

        discard_unused_resources = d.pop("discardUnusedResources", UNSET)

        merge_duplicate_fonts = d.pop("mergeDuplicateFonts", UNSET)

        merge_duplicate_images = d.pop("mergeDuplicateImages", UNSET)

        compress_objects_into_streams = d.pop("compressObjectsIntoStreams", UNSET)

        _color_image_handler = d.pop("colorImageHandler", UNSET)
        color_image_handler: ActionStepOptimizeActionProfileColorImageHandler | Unset
        if isinstance(_color_image_handler,  Unset):
            color_image_handler = UNSET
        else:
            color_image_handler = ActionStepOptimizeActionProfileColorImageHandler.from_dict(_color_image_handler)




        _gray_image_handler = d.pop("grayImageHandler", UNSET)
        gray_image_handler: ActionStepOptimizeActionProfileGrayImageHandler | Unset
        if isinstance(_gray_image_handler,  Unset):
            gray_image_handler = UNSET
        else:
            gray_image_handler = ActionStepOptimizeActionProfileGrayImageHandler.from_dict(_gray_image_handler)




        _bw_image_handler = d.pop("bwImageHandler", UNSET)
        bw_image_handler: ActionStepOptimizeActionProfileBwImageHandler | Unset
        if isinstance(_bw_image_handler,  Unset):
            bw_image_handler = UNSET
        else:
            bw_image_handler = ActionStepOptimizeActionProfileBwImageHandler.from_dict(_bw_image_handler)




        action_step_optimize_action_profile = cls(
            discard_annotations=discard_annotations,
            discard_unused_resources=discard_unused_resources,
            merge_duplicate_fonts=merge_duplicate_fonts,
            merge_duplicate_images=merge_duplicate_images,
            compress_objects_into_streams=compress_objects_into_streams,
            color_image_handler=color_image_handler,
            gray_image_handler=gray_image_handler,
            bw_image_handler=bw_image_handler,
        )

        return action_step_optimize_action_profile

