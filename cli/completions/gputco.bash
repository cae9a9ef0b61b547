# bash completion for gputco(1): commands, options, and catalog ids (asked of gputco itself:
# `gputco catalog list WHAT --format ids`). Installed as
# share/bash-completion/completions/gputco. tests/cli/cli_install_test.cpp checks that every
# option of every command's --help is listed here.

_gputco_ids() {
  gputco catalog list "$1" --format ids 2>/dev/null
}

_gputco() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local command=${words[1]} action=${words[2]}
  if ((cword == 1)); then
    COMPREPLY=($(compgen -W "plan fit throughput calibrate sweep risk diff catalog --help --version" -- "$cur"))
    return
  fi

  # Values of the options that take one.
  case $prev in
    --gpu | --compare) COMPREPLY=($(compgen -W "$(_gputco_ids gpus)" -- "$cur")); return ;;
    --model) COMPREPLY=($(compgen -W "$(_gputco_ids models)" -- "$cur")); return ;;
    --quant) COMPREPLY=($(compgen -W "$(_gputco_ids quants)" -- "$cur")); return ;;
    --kv-cache | --cache-type-k | --cache-type-v)
      COMPREPLY=($(compgen -W "f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1 fp8" -- "$cur"))
      return
      ;;
    --engine)
      COMPREPLY=($(compgen -W "llama.cpp vllm sglang tensorrt-llm" -- "$cur"))
      return
      ;;
    --split) COMPREPLY=($(compgen -W "layer tensor" -- "$cur")); return ;;
    --backend) COMPREPLY=($(compgen -W "cuda metal rocm vulkan sycl" -- "$cur")); return ;;
    --mode)
      COMPREPLY=($(compgen -W "inference finetune-full finetune-lora finetune-qlora" -- "$cur"))
      return
      ;;
    --vendor) COMPREPLY=($(compgen -W "nvidia amd intel apple" -- "$cur")); return ;;
    --term) COMPREPLY=($(compgen -W "on_demand spot reserved_1y reserved_3y" -- "$cur")); return ;;
    --format)
      if [[ $command == calibrate ]]; then
        COMPREPLY=($(compgen -W "vllm-bench-serve sglang-bench-serving trtllm-bench genai-perf llama-bench csv" -- "$cur"))
      elif [[ $command == catalog ]]; then
        COMPREPLY=($(compgen -W "text json csv ids" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "text json csv" -- "$cur"))
      fi
      return
      ;;
    -o | --output | --catalog | --mmproj) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --set | --unset | --vary)
      compopt -o nospace 2>/dev/null
      COMPREPLY=($(compgen -W "scenario. workload. site. option:" -- "$cur"))
      return
      ;;
    --as-of | --max-age | --context | --streams | --prompt-tokens | --count | --lora-rank | \
      --micro-batch | --draws | --seed | --threads | --book | --observed-on | --provider | --source | \
      --region | --min-memory | --max-price | --input-tokens | --output-tokens | --tpot-ms | \
      --ttft-ms | --user-tokens-per-s | --tp | --pp | --batch | --gpus | --tensor-split | \
      --power-limit | --engine-version | --measured-on | --remove)
      return
      ;;
  esac

  local options
  case $command in
    plan) options="--output -o --no-workbook --format --json --set --unset --quiet -q --quote --catalog --help" ;;
    fit)
      options="--model --quant --context --streams --kv-cache --cache-type-k
               --cache-type-v --split --backend --prompt-tokens
               --gpu --count --gpus --tensor-split --power-limit --mmproj --no-mmproj
               --compare --multi --as-of --mode --lora-rank --micro-batch
               --no-checkpointing --double-quant --engine --input-tokens --output-tokens
               --tpot-ms --ttft-ms --user-tokens-per-s --json --catalog --help"
      ;;
    throughput)
      options="--model --quant --gpu --count --power-limit --engine --tp --pp --input-tokens
               --output-tokens
               --kv-cache --batch --max-batch --tpot-ms --ttft-ms --user-tokens-per-s --json
               --catalog --help"
      ;;
    calibrate)
      options="--model --quant --gpu --count --tp --pp --engine --engine-version --kv-cache
               --measured-on --format --dry-run --list --remove --json --catalog --help"
      ;;
    sweep) options="--vary --format --json --set --unset --threads --quiet -q --catalog --help" ;;
    risk) options="--draws --seed --threads --set --unset --json --quiet -q --time --catalog --help" ;;
    diff) options="--format --json --catalog --help" ;;
    catalog)
      if ((cword == 2)); then
        COMPREPLY=($(compgen -W "list show import export check --help" -- "$cur"))
        return
      fi
      case $action in
        list)
          if ((cword == 3)); then
            COMPREPLY=($(compgen -W "gpus devices models quants systems prices rentals tariffs apis carbon" -- "$cur"))
            return
          fi
          options="--format --json --as-of --max-age --vendor --min-memory --max-price --provider
                   --region --term --catalog --help"
          ;;
        show)
          if ((cword == 3)); then
            COMPREPLY=($(compgen -W "$(_gputco_ids gpus)" -- "$cur"))
            return
          fi
          options="--json --catalog --help"
          ;;
        import)
          options="--book --catalog --as-of --observed-on --provider --source --accept-outliers
                   --band --tax --period --sector --since --allow-skipped --help"
          ;;
        export)
          if ((cword == 3)) && [[ $cur != -* ]]; then
            COMPREPLY=($(compgen -W "prices rentals" -- "$cur"))
            return
          fi
          options="--book --output -o --catalog --help"
          ;;
        check) options="--catalog --as-of --max-age --help" ;;
      esac
      ;;
  esac

  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  elif [[ $command == plan || $command == sweep || $command == risk ]]; then
    COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -f -X '!*.json' -- "$cur")
      $(compgen -d -- "$cur"))
  elif [[ $command == calibrate ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ $command == catalog && $action == import ]]; then
    COMPREPLY=($(compgen -f -X '!*.csv' -- "$cur") $(compgen -d -- "$cur"))
  fi
}

complete -F _gputco gputco
