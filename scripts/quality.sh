#!/usr/bin/env bash
# The quality gates CI runs after the README's test command (docs/quality.md says what each
# checks). Run one stage with:  bash scripts/quality.sh format|tidy|asan|fuzz
#   ACCEL_FUZZ_SECONDS=60   seconds per fuzz target (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."

stages=("$@")
if [ ${#stages[@]} -eq 0 ]; then
    stages=(format tidy asan fuzz)
fi

install_missing() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo=sudo
        echo "Installing missing Debian packages: ${missing[*]}"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

stage_format() {
    echo "== format: clang-format --dry-run on every tracked C++ file"
    install_missing clang-format
    git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
    echo "format: clean"
}

stage_tidy() {
    # The first run on a machine checks every file of core/, app/ and fuzz/ and the last commit's.
    # It records the commit it passed on; later runs check what changed since that commit (a
    # header brings its own .cpp) and a rotating quarter of core/, app/ and fuzz/ (four runs cover
    # them all): the gate holds on every change at a fraction of the time (issue #40).
    # ACCEL_TIDY_ALL=1 checks everything.
    install_missing clang-tidy
    [ -f build/compile_commands.json ] || bash scripts/setup.sh
    local record="${XDG_CACHE_HOME:-$HOME/.cache}/accel-explorer/tidy-passed" since="" files
    if [ -f "$record" ] && [ "${ACCEL_TIDY_ALL:-0}" != 1 ]; then
        since=$(cat "$record")
        git merge-base --is-ancestor "$since" HEAD 2>/dev/null || since=""
    fi
    if [ -n "$since" ]; then
        local quarter=$(( $(git rev-list --count HEAD) % 4 ))
        echo "== tidy: clang-tidy on the C++ changed since ${since:0:12} and a quarter of core/, app/, fuzz/"
        files=$( { git ls-files 'core/*.cpp' 'app/*.cpp' 'fuzz/*.cpp' \
                       | awk -v q="$quarter" '(NR - 1) % 4 == q';
                   git diff --name-only "$since" HEAD -- '*.cpp' '*.h' | sed 's/\.h$/.cpp/'; } \
                   | sort -u )
    else
        echo "== tidy: clang-tidy on core/, app/, fuzz/ and the C++ files changed by the last commit"
        files=$( { git ls-files 'core/*.cpp' 'app/*.cpp' 'fuzz/*.cpp';
                   git diff --name-only HEAD~1 -- '*.cpp' 2>/dev/null || true; } | sort -u )
    fi
    local existing=()
    for file in $files; do
        # only files that exist and that the default build compiles
        [ -f "$file" ] && grep -q "\"file\": \".*/$file\"" build/compile_commands.json && existing+=("$file")
    done
    # one file per process, every core busy
    local log=build/clang-tidy.log status=0
    printf '%s\n' "${existing[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p build --quiet >"$log" 2>&1 \
        || status=1
    grep -v "warnings generated" "$log" || true
    if [ $status -ne 0 ]; then
        echo "tidy: findings above"
        exit 1
    fi
    mkdir -p "$(dirname "$record")" && git rev-parse HEAD > "$record"
    echo "tidy: clean (${#existing[@]} files)"
}

stage_asan() {
    echo "== asan: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer"
    ACCEL_PRESET=asan bash scripts/setup.sh
    ctest --preset asan
}

stage_fuzz() {
    local seconds="${ACCEL_FUZZ_SECONDS:-60}"
    echo "== fuzz: each libFuzzer target for ${seconds} s"
    install_missing clang libclang-rt-14-dev
    cmake --preset fuzz >/dev/null
    cmake --build --preset fuzz
    local work=build-fuzz/run
    rm -rf "$work"
    for target in scenario_file preset_file hf_config set_overrides trace measurements \
        safetensors_header; do
        local seeds="$work/$target/seeds" corpus="$work/$target/corpus" findings="$work/$target/findings"
        mkdir -p "$seeds" "$corpus" "$findings"
        case $target in
            scenario_file) cp presets/scenarios/*.json tests/fixtures/good/*.json tests/fixtures/bad/*.json "$seeds/" ;;
            preset_file) cp presets/models.json presets/devices.json "$seeds/" ;;
            hf_config) cp tests/fixtures/hf/*.json "$seeds/" ;;
            set_overrides)
                printf 'serving.batch=32' > "$seeds/batch"
                printf 'device.bandwidth_gb_s=2000\nserving.weight_format=int4' > "$seeds/two"
                printf 'model={"parameters": 1e9, "layers": 2, "kv_heads": 1, "head_dim": 8}\nserving.tensor_parallel=2' > "$seeds/inline" ;;
            trace) cp tests/fixtures/traces/*.csv "$seeds/" ;;
            measurements) cp tests/fixtures/measurements/*.json tests/fixtures/measurements/*.csv presets/measurements/*.csv presets/calibration/*.json "$seeds/" ;;
            safetensors_header) cp tests/fixtures/safetensors/gpt2-tiny/header.bin "$seeds/" ;;
        esac
        cp tests/fixtures/fuzz/$target/* "$seeds/" 2>/dev/null || true
        echo "-- fuzz_$target"
        if ! "build-fuzz/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
                -max_len=65536 -dict=fuzz/json.dict -print_final_stats=1 \
                -artifact_prefix="$findings/" "$corpus" "$seeds" > "$work/$target.log" 2>&1; then
            tail -n 60 "$work/$target.log"
            echo "fuzz_$target found a problem: the input is in $findings/."
            echo "Fix it, then keep the input as a regression fixture: tests/fixtures/fuzz/$target/"
            exit 1
        fi
        grep -E "^(stat::number_of_executed_units|Done)" "$work/$target.log" || true
    done
    echo "fuzz: no crash, leak, timeout or sanitizer report"
}

for stage in "${stages[@]}"; do
    case $stage in
        format | tidy | asan | fuzz) "stage_$stage" ;;
        *) echo "unknown stage: $stage (format, tidy, asan, fuzz)"; exit 2 ;;
    esac
done
