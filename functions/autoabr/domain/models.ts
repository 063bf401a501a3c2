/**
 * The VMAF models a job can ask for, and how each is scored. Both distorted and reference are scaled
 * (bicubic) to the model's viewing resolution before scoring, because VMAF models are trained for one
 * display size: scoring a 360p encode at 360p would model a tiny picture seen from far away.
 */
export const MODEL_NAMES = ['PhoneHD', 'HD', 'UHD'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

export interface VmafModel {
  name: ModelName;
  /** libvmaf >= 2 built-in model version. */
  version: string;
  /** libvmaf 1.x model file inside the model folder (with its `.model` companion beside it). */
  pklFile: string;
  /** The phone transform of vmaf_v0.6.1 (scores as seen on a phone screen). */
  phone: boolean;
  width: number;
  height: number;
}

export const VMAF_MODELS: Record<ModelName, VmafModel> = {
  PhoneHD: {
    name: 'PhoneHD',
    version: 'vmaf_v0.6.1',
    pklFile: 'vmaf_v0.6.1.pkl',
    phone: true,
    width: 1920,
    height: 1080,
  },
  HD: {
    name: 'HD',
    version: 'vmaf_v0.6.1',
    pklFile: 'vmaf_v0.6.1.pkl',
    phone: false,
    width: 1920,
    height: 1080,
  },
  UHD: {
    name: 'UHD',
    version: 'vmaf_4k_v0.6.1',
    pklFile: 'vmaf_4k_v0.6.1.pkl',
    phone: false,
    width: 3840,
    height: 2160,
  },
};

export const isModelName = (value: string): value is ModelName =>
  (MODEL_NAMES as readonly string[]).includes(value);
