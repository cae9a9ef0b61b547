# fish completion for gputco(1): commands, options, and catalog ids (asked of gputco itself:
# `gputco catalog list WHAT --format ids`). Installed as
# share/fish/vendor_completions.d/gputco.fish. tests/cli/cli_install_test.cpp checks that every
# option of every command's --help is here.

set -l commands plan fit throughput calibrate sweep risk diff catalog
complete -c gputco -f
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a plan -d 'plan a scenario'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a fit -d 'does a model fit, how fast'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a throughput -d 'serving throughput of a box'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a calibrate -d 'store your serving benchmark runs'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a sweep -d 'plan as one number varies'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a risk -d 'Monte Carlo: buy against rent'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a diff -d 'compare two plans'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -a catalog -d 'the price catalog'
complete -c gputco -n "not __fish_seen_subcommand_from $commands" -l version -d 'version and catalog schema'
complete -c gputco -l help -s h -d 'print the usage'

# plan, sweep, risk: a scenario file
for c in plan sweep risk
    complete -c gputco -n "__fish_seen_subcommand_from $c" -k -a '(__fish_complete_suffix .ini; __fish_complete_suffix .json)'
    complete -c gputco -n "__fish_seen_subcommand_from $c" -l set -r -d "a value in place of the scenario's (SECTION.KEY=VALUE)"
    complete -c gputco -n "__fish_seen_subcommand_from $c" -l catalog -r -F -d 'user catalog to layer over the built-in one'
    complete -c gputco -n "__fish_seen_subcommand_from $c" -l json -d 'print JSON'
    complete -c gputco -n "__fish_seen_subcommand_from $c" -l quiet -s q -d 'print nothing but errors'
end
complete -c gputco -n "__fish_seen_subcommand_from plan" -l output -s o -r -F -d 'workbook to write'
complete -c gputco -n "__fish_seen_subcommand_from plan" -l no-workbook -d 'write no workbook'
complete -c gputco -n "__fish_seen_subcommand_from plan sweep" -l format -x -a 'text json csv' -d 'what goes to stdout'
complete -c gputco -n "__fish_seen_subcommand_from plan" -l quote -d 'the customer-facing workbook'
complete -c gputco -n "__fish_seen_subcommand_from sweep" -l vary -x -d 'KEY=FROM:TO:STEP'
complete -c gputco -n "__fish_seen_subcommand_from sweep" -l threads -x -d 'threads planning the values'
complete -c gputco -n "__fish_seen_subcommand_from risk" -l draws -x -d 'number of draws'
complete -c gputco -n "__fish_seen_subcommand_from risk" -l seed -x -d 'seed of the random numbers'
complete -c gputco -n "__fish_seen_subcommand_from risk" -l threads -x -d 'threads for the draws'
complete -c gputco -n "__fish_seen_subcommand_from risk" -l time -d 'print how long it took'

# fit
complete -c gputco -n "__fish_seen_subcommand_from fit" -l model -x -a '(gputco catalog list models --format ids 2>/dev/null)' -d 'catalog model id'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l quant -x -a '(gputco catalog list quants --format ids 2>/dev/null)' -d 'weight format'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l gpu -x -a '(gputco catalog list gpus --format ids 2>/dev/null)' -d 'one catalog device id'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l compare -x -a '(gputco catalog list gpus --format ids 2>/dev/null)' -d 'two device ids side by side'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l context -x -d 'context tokens per stream'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l streams -x -d 'concurrent streams'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l kv-cache -x -a 'f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1' -d 'KV cache type of K and V'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l cache-type-k -x -a 'f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1' -d 'K cache type'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l cache-type-v -x -a 'f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1' -d 'V cache type'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l split -x -a 'layer tensor' -d 'several devices'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l backend -x -a 'cuda metal rocm vulkan sycl' -d 'backend'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l prompt-tokens -x -d 'prompt length'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l count -x -d 'devices per system'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l multi -d 'list 2x, 4x and 8x systems'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l as-of -x -d 'prices as of YYYY-MM-DD'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l mode -x -a 'inference finetune-full finetune-lora finetune-qlora' -d 'inference or fine-tuning'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l lora-rank -x -d 'LoRA rank'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l micro-batch -x -d 'sequences per device per step'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l no-checkpointing -d 'no gradient checkpointing'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l double-quant -d 'QLoRA double quantization'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l engine -x -a 'llama.cpp vllm sglang tensorrt-llm' -d 'serving finder engine'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l input-tokens -x -d 'mean prompt tokens'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l output-tokens -x -d 'mean generated tokens'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l tpot-ms -x -d 'p99 time per output token (ms)'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l ttft-ms -x -d 'p99 time to first token (ms)'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l user-tokens-per-s -x -d 'per-user speed (tokens/s)'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l json -d 'print JSON'
complete -c gputco -n "__fish_seen_subcommand_from fit" -l catalog -r -F -d 'user catalog to layer over the built-in one'

# throughput
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l model -x -a '(gputco catalog list models --format ids 2>/dev/null)' -d 'catalog model id'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l quant -x -a '(gputco catalog list quants --format ids 2>/dev/null)' -d 'weight format'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l gpu -x -a '(gputco catalog list gpus --format ids 2>/dev/null)' -d 'catalog device id'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l count -x -d 'GPUs in the box'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l engine -x -a 'llama.cpp vllm sglang tensorrt-llm' -d 'serving engine'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l tp -x -d 'tensor parallel GPUs per replica'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l pp -x -d 'pipeline parallel stages per replica'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l input-tokens -x -d 'mean prompt tokens'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l output-tokens -x -d 'mean generated tokens'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l kv-cache -x -a 'f16 fp8 q8_0 q4_0' -d 'KV cache type'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l batch -x -d 'sequences in flight per replica'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l max-batch -d 'as many sequences as memory allows'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l tpot-ms -x -d 'p99 time per output token (ms)'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l ttft-ms -x -d 'p99 time to first token (ms)'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l user-tokens-per-s -x -d 'per-user speed (tokens/s)'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l json -d 'print JSON'
complete -c gputco -n "__fish_seen_subcommand_from throughput" -l catalog -r -F -d 'user catalog to layer over the built-in one'

# catalog
set -l actions list show import export check
complete -c gputco -n "__fish_seen_subcommand_from catalog; and not __fish_seen_subcommand_from $actions" -a "$actions"
set -l lists gpus devices models quants systems prices rentals tariffs apis carbon
complete -c gputco -n "__fish_seen_subcommand_from list; and not __fish_seen_subcommand_from $lists" -a "$lists"
complete -c gputco -n "__fish_seen_subcommand_from list" -l format -x -a 'text json csv ids' -d 'output format'
complete -c gputco -n "__fish_seen_subcommand_from list" -l json -d 'print JSON'
complete -c gputco -n "__fish_seen_subcommand_from list check" -l as-of -x -d 'YYYY-MM-DD'
complete -c gputco -n "__fish_seen_subcommand_from list check" -l max-age -x -d 'stale after DAYS'
complete -c gputco -n "__fish_seen_subcommand_from list" -l vendor -x -a 'nvidia amd intel apple' -d "the device's vendor"
complete -c gputco -n "__fish_seen_subcommand_from list" -l min-memory -x -d 'at least GB of memory'
complete -c gputco -n "__fish_seen_subcommand_from list" -l max-price -x -d 'at most this price'
complete -c gputco -n "__fish_seen_subcommand_from list import" -l provider -x -d 'the provider'
complete -c gputco -n "__fish_seen_subcommand_from list" -l region -x -d 'the region'
complete -c gputco -n "__fish_seen_subcommand_from list" -l term -x -a 'on_demand spot reserved_1y reserved_3y' -d 'rental term'
complete -c gputco -n "__fish_seen_subcommand_from show" -a '(gputco catalog list gpus --format ids 2>/dev/null)'
complete -c gputco -n "__fish_seen_subcommand_from show" -l json -d 'print JSON'
complete -c gputco -n "__fish_seen_subcommand_from import" -k -a '(__fish_complete_suffix .csv)'
complete -c gputco -n "__fish_seen_subcommand_from import export" -l book -x -d 'price book'
complete -c gputco -n "__fish_seen_subcommand_from import" -l as-of -x -d 'rows after this date are refused'
complete -c gputco -n "__fish_seen_subcommand_from import" -l observed-on -x -d 'date of a SkyPilot or gpuhunt file'
complete -c gputco -n "__fish_seen_subcommand_from import" -l source -x -d 'the source of every row'
complete -c gputco -n "__fish_seen_subcommand_from import" -l accept-outliers -d 'import rows that fail a plausibility check'
complete -c gputco -n "__fish_seen_subcommand_from export" -a 'prices rentals'
complete -c gputco -n "__fish_seen_subcommand_from export" -l output -s o -r -F -d 'file to write'
complete -c gputco -n "__fish_seen_subcommand_from catalog" -l catalog -r -F -d 'user catalog'

# diff: two scenarios or plans' JSON
complete -c gputco -n "__fish_seen_subcommand_from diff" -k -a '(__fish_complete_suffix .ini; __fish_complete_suffix .json)'
complete -c gputco -n "__fish_seen_subcommand_from diff" -l format -x -a 'text json markdown' -d 'what to print'
complete -c gputco -n "__fish_seen_subcommand_from diff" -l json -d 'print JSON'
complete -c gputco -n "__fish_seen_subcommand_from diff" -l catalog -r -F -d 'catalog database'

# calibrate: benchmark files, the flags they do not state, --list, --remove
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -F
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l model -x -a '(gputco catalog list models --format ids 2>/dev/null)' -d 'the model the runs served'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l quant -x -a '(gputco catalog list quants --format ids 2>/dev/null)' -d 'its weight format'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l gpu -x -a '(gputco catalog list gpus --format ids 2>/dev/null)' -d 'the device the runs ran on'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l count -x -d 'GPUs of the box'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l tp -x -d 'tensor parallel GPUs per replica'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l pp -x -d 'pipeline stages per replica'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l engine -x -a 'llama.cpp vllm sglang tensorrt-llm' -d 'serving engine'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l engine-version -x -d 'the engine release'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l kv-cache -x -a 'f16 fp8 q8_0 q4_0' -d 'KV cache type'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l measured-on -x -d 'the day the runs ran'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l format -x -a 'vllm-bench-serve sglang-bench-serving trtllm-bench genai-perf llama-bench csv' -d 'benchmark format'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l dry-run -d 'check, store nothing'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l list -d 'list the stored runs'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l remove -x -d 'remove stored runs'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l json -d '--list as JSON'
complete -c gputco -n "__fish_seen_subcommand_from calibrate" -l catalog -r -d 'user catalog'
