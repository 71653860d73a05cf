/**
 * LLaMA-Factory's SFT config for a sharegpt export (llamafactory_sft.yaml), so that
 *   cd <export> && llamafactory-cli train llamafactory_sft.yaml
 * trains on it as is. Paths are relative to the working directory (LLaMA-Factory reads
 * `dataset_dir` and `output_dir` that way), so the folder can be copied to a GPU machine whole.
 *
 * Defaults: a LoRA fine-tune of a small Qwen2.5 chat model (the vision-language one when the
 * export has screenshots), with the chat template that model needs; `model_name_or_path` and
 * `template` are meant to be changed together. `cutoff_len` is large enough that no sample is cut
 * (LLaMA-Factory truncates longer ones, answer included): a byte-level BPE token holds at least one
 * byte, so a sample's UTF-8 length bounds its tokens; padding is per batch, so a generous cutoff
 * costs nothing.
 */
import { dump } from 'js-yaml';

export interface LlamaFactoryPlan {
  /** `<name>_v<N>`: names the output folder. */
  label: string;
  /** dataset_info.json's names of the train split and, when there is one, the validation split. */
  train: string;
  validation?: string;
  /** Any sample has a screenshot: a vision-language model and template. */
  images: boolean;
  /** The longest sample's UTF-8 bytes (system, user and assistant text), and the most images in one sample. */
  maxBytes: number;
  maxImages: number;
}

const TEXT_MODEL = { model: 'Qwen/Qwen2.5-0.5B-Instruct', template: 'qwen' };
const VISION_MODEL = { model: 'Qwen/Qwen2.5-VL-3B-Instruct', template: 'qwen2_vl' };
/** LLaMA-Factory's default image budget, written out so the token bound below holds: at most (768/28)^2 = 752 tokens an image. */
const IMAGE_MAX_PIXELS = 768 * 768;
const TOKENS_PER_IMAGE = 1024;
/** Chat template tokens around the three messages. */
const TEMPLATE_TOKENS = 64;

export function cutoffLength(p: Pick<LlamaFactoryPlan, 'maxBytes' | 'maxImages'>): number {
  const tokens = p.maxBytes + TEMPLATE_TOKENS + p.maxImages * TOKENS_PER_IMAGE;
  return Math.max(1024, Math.ceil(tokens / 1024) * 1024);
}

/**
 * The YAML text: each section's values dumped by js-yaml (quoting is the library's, not ours), under
 * the comments a person reading the file needs.
 */
export function llamaFactoryConfig(p: LlamaFactoryPlan): string {
  const m = p.images ? VISION_MODEL : TEXT_MODEL;
  const section = (comment: string, values: Record<string, unknown>) => `### ${comment}\n${dump(values, { lineWidth: -1 })}`;
  const header = [
    `# LLaMA-Factory SFT on the Agent Lab dataset ${p.label}, written by \`lab export --format sharegpt\`.`,
    '# Run it from this folder (paths are relative to the working directory):',
    '#   llamafactory-cli train llamafactory_sft.yaml',
    '# Another model: set model_name_or_path (a Hugging Face id or a local folder) and the template',
    "# LLaMA-Factory names for it (e.g. llama3, qwen3_nothink); keep a vision-language model's template",
    '# for an export with screenshots.',
    '',
  ].join('\n');
  const sections = [
    section('model', { model_name_or_path: m.model, trust_remote_code: true, ...(p.images ? { image_max_pixels: IMAGE_MAX_PIXELS } : {}) }),
    section('method', { stage: 'sft', do_train: true, finetuning_type: 'lora', lora_rank: 8, lora_target: 'all' }),
    section('dataset (dataset_info.json in this folder registers each split; cutoff_len: the longest sample fits whole)', {
      dataset_dir: '.', dataset: p.train, ...(p.validation ? { eval_dataset: p.validation } : {}), template: m.template,
      cutoff_len: cutoffLength(p), overwrite_cache: true, preprocessing_num_workers: 4,
    }),
    section('output', { output_dir: `saves/${p.label}-sft`, logging_steps: 10, save_steps: 500, plot_loss: true, overwrite_output_dir: true, report_to: 'none' }),
    section('train (bf16 needs a GPU with bfloat16, Ampere or newer; use fp16: true on older ones)', {
      per_device_train_batch_size: 1, gradient_accumulation_steps: 8, learning_rate: 1.0e-4, num_train_epochs: 3.0,
      lr_scheduler_type: 'cosine', warmup_ratio: 0.1, bf16: true,
    }),
    ...(p.validation ? [section('eval', { per_device_eval_batch_size: 1, eval_strategy: 'steps', eval_steps: 500 })] : []),
  ];
  return header + '\n' + sections.join('\n');
}
