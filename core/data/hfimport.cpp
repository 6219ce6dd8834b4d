// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/data/hfimport.h"

#include "core/data/jsonread.h"
#include "core/model/architecture.h"
#include "core/model/units.h"
#include "core/model/weightparts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

namespace core {

namespace {

using detail::fail;
using detail::json;

enum class Family {
    Llama,
    Mistral,
    Mixtral,
    Qwen2,
    Gemma,
    Gemma2,
    Phi3,
    Falcon,
    Gpt2,
    GptJ,
    Qwen3,
    Qwen3Moe,
    Qwen3Next,
    Gemma3,
    Llama4,
    GptOss,
    DeepSeek,
    Glm4Moe,
    Granite,
    Olmo2,
    InternLm2,
    InternLm3,
    Cohere,
    Cohere2,
    StarCoder2,
    Baichuan,
    MiniCpm,
    Nemotron,
    MiniMaxM2,
    Gemma4,
    NemotronH,
    Jamba,
    Hunyuan,
    Step3p5,
};

struct FamilyInfo
{
    Family family;
    const char *key;
    bool gatedMlp;      ///< gate, up and down projections (3 matrices) or plain up/down (2)
    bool tiedByDefault; ///< the library's default for tie_word_embeddings
};

constexpr FamilyInfo kFamilies[] = {
    {Family::Llama, "llama", true, false},
    {Family::Mistral, "mistral", true, false},
    {Family::Mixtral, "mixtral", true, false},
    {Family::Qwen2, "qwen2", true, false},
    {Family::Gemma, "gemma", true, true},
    {Family::Gemma2, "gemma2", true, true},
    {Family::Phi3, "phi3", true, false},
    {Family::Falcon, "falcon", false, true},
    {Family::Gpt2, "gpt2", false, true},
    {Family::GptJ, "gptj", false, false},
    {Family::Qwen3, "qwen3", true, false},
    {Family::Qwen3Moe, "qwen3_moe", true, false},
    {Family::Qwen3Next, "qwen3_next", true, false},
    {Family::Gemma3, "gemma3_text", true, true},
    {Family::Llama4, "llama4_text", true, false},
    {Family::GptOss, "gpt_oss", true, false},
    {Family::DeepSeek, "deepseek_v3", true, false},
    {Family::DeepSeek, "deepseek_v2", true, false},
    {Family::DeepSeek, "kimi_k2", true, false},
    // DeepSeek-V3.2 and GLM-5: MLA with a sparse-attention indexer (DSA)
    {Family::DeepSeek, "deepseek_v32", true, false},
    {Family::DeepSeek, "glm_moe_dsa", true, false},
    // GLM-4.7-Flash: DeepSeek-V2's MLA attention with GLM-4.5's MoE (vLLM's glm4_moe_lite.py
    // subclasses both)
    {Family::DeepSeek, "glm4_moe_lite", true, false},
    {Family::Glm4Moe, "glm4_moe", true, false},
    {Family::Granite, "granite", true, true},
    {Family::Olmo2, "olmo2", true, false},
    {Family::InternLm2, "internlm2", true, false},
    {Family::InternLm3, "internlm3", true, false},
    {Family::Cohere, "cohere", true, true},
    {Family::Cohere2, "cohere2", true, true},
    {Family::StarCoder2, "starcoder2", false, true},
    {Family::Baichuan, "baichuan", true, false},
    {Family::MiniCpm, "minicpm", true, true},
    {Family::Nemotron, "nemotron", false, false},
    {Family::MiniMaxM2, "minimax_m2", true, false},
    // Hunyuan-A13B: Tencent's first release names it hunyuan, transformers hunyuan_v1_moe
    {Family::Hunyuan, "hunyuan", true, false},
    {Family::Hunyuan, "hunyuan_v1_moe", true, false},
    // SmolLM3: Llama's matrices (no_rope_layers only turns RoPE off in some layers), tied by
    // default
    {Family::Llama, "smollm3", true, true},
    {Family::Gemma4, "gemma4_text", true, true},
    // Step 3.5 Flash: sliding (more query heads) and full attention 3 : 1 with a gate per head,
    // MoE layers with one shared expert
    {Family::Step3p5, "step3p5", true, false},
    // Nemotron-H: Mamba-2, attention and MLP layers each on their own (hybrid_override_pattern),
    // the MLP two matrices with squared ReLU
    {Family::NemotronH, "nemotron_h", false, false},
    // Jamba: Mamba (1) layers with an attention layer every attn_layer_period and a SwiGLU MoE
    // every expert_layer_period
    {Family::Jamba, "jamba", true, false},
    // Qwen3.5 and 3.6: the Qwen3-Next layout (Gated DeltaNet : gated attention, 3 : 1), dense or
    // MoE
    {Family::Qwen3Next, "qwen3_5_text", true, false},
    {Family::Qwen3Next, "qwen3_5_moe_text", true, false},
    // the text models inside multimodal wrappers, under the names newer files give them
    // Xiaomi's MiMo: Qwen2's model (q/k/v biases) with multi-token-prediction layers beside it
    {Family::Qwen2, "mimo", true, false},
    {Family::Qwen2, "qwen2_5_vl_text", true, false},
    {Family::Qwen2, "qwen2_vl_text", true, false},
    {Family::Qwen3, "qwen3_vl_text", true, false},
    {Family::Qwen3Moe, "qwen3_vl_moe_text", true, false},
};

/** A model_type this import does not know, whose keys are the standard ones of a decoder: read
 *  with Llama's layout (issue #44), the assumption said beside the number. */
constexpr FamilyInfo kStandardDecoder = {Family::Llama, "standard decoder", true, false};

/** Multimodal wrappers: the language model's config is nested in text_config; the type its
 *  text_config has when the file leaves text_config's model_type out. */
struct Wrapper
{
    const char *key;
    const char *textType;
};
constexpr Wrapper kWrappers[] = {
    {"gemma3", "gemma3_text"},     {"llama4", "llama4_text"},
    {"mistral3", "mistral"},       {"qwen2_5_vl", "qwen2"},
    {"qwen2_vl", "qwen2"},         {"qwen3_vl", "qwen3"},
    {"qwen3_vl_moe", "qwen3_moe"}, {"llava", "llama"},
    {"qwen3_5", "qwen3_5_text"},   {"qwen3_5_moe", "qwen3_5_moe_text"},
    {"gemma4", "gemma4_text"},
};

/** Families the core cannot express yet: refused with the reason, never approximated. */
struct Refusal
{
    const char *key;
    const char *why;
};
constexpr Refusal kRefusals[] = {
    {"minimax", "MiniMax-Text-01 mixes lightning (linear) attention with softmax layers in a "
                "pattern this import does not read yet"},
    {"minicpm3", "MiniCPM3 uses multi-head latent attention with its own key names, which this "
                 "import does not read yet"},
};

/** Reads config fields under any of their names, recording which name was used. A multimodal
 *  wrapper's outer object is searched after its text_config (Llama 4 keeps tie_word_embeddings
 *  outside). */
class Config
{
public:
    explicit Config(const json &root, const json *outer = nullptr)
        : m_root(root)
        , m_outer(outer)
    {}

    const json *find(std::initializer_list<const char *> names, std::string *used = nullptr)
    {
        for (const json *object : {&m_root, m_outer}) {
            if (!object)
                continue;
            for (const char *name : names) {
                auto it = object->find(name);
                if (it != object->end() && !it->is_null()) {
                    if (used)
                        *used = pathOf(name, object);
                    m_used.insert(name);
                    return &*it;
                }
            }
        }
        return nullptr;
    }

    /** The keys the import read (whether or not their value changed the model). */
    const std::set<std::string> &used() const { return m_used; }

    /** "/text_config/head_dim" or "/head_dim": where a key sits in the file. */
    std::string pathOf(const std::string &name, const json *object = nullptr) const
    {
        const bool nested = m_outer && (object ? object == &m_root : true);
        return (nested ? "/text_config/" : "/") + name;
    }

    /** A positive whole number under one of `names`; kUnset when absent and optional. */
    double count(std::initializer_list<const char *> names, bool required, ModelSpec &model,
                 const char *field)
    {
        std::string used;
        const json *value = find(names, &used);
        if (!value) {
            if (required)
                fail(pathOf(*names.begin()),
                     "missing: the config gives no " + std::string(*names.begin()));
            return kUnset;
        }
        if (!value->is_number())
            fail(used, "must be a number");
        const double number = value->get<double>();
        if (!std::isfinite(number) || number < 1 || number > 1e12 || std::floor(number) != number)
            fail(used, "must be a positive whole number (got " + value->dump() + ")");
        if (field)
            model.sources[field] = "config.json: " + used.substr(1);
        return number;
    }

    /** The same for a count that may be 0 (shared experts, dense layers); `fallback` if absent. */
    double countOrZero(const char *name, double fallback)
    {
        std::string used;
        const json *value = find({name}, &used);
        if (!value)
            return fallback;
        if (!value->is_number() || !std::isfinite(value->get<double>()) ||
            value->get<double>() < 0 || value->get<double>() > 1e12 ||
            std::floor(value->get<double>()) != value->get<double>())
            fail(used, "must be a whole number from 0 (got " + value->dump().substr(0, 40) + ")");
        return value->get<double>();
    }

    bool flag(const char *name, bool fallback)
    {
        std::string used;
        const json *value = find({name}, &used);
        if (!value)
            return fallback;
        if (!value->is_boolean())
            fail(used, "must be true or false");
        return value->get<bool>();
    }

    /** A count given once or once per layer (Hunyuan's moe_topk, moe_intermediate_size): every
     *  layer's must be the same whole number from 0; kUnset when absent. */
    double uniformCount(const char *name, double layers)
    {
        std::string used;
        const json *value = find({name}, &used);
        if (!value)
            return kUnset;
        const auto whole = [](const json &v) {
            return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0 &&
                   v.get<double>() <= 1e12 && std::floor(v.get<double>()) == v.get<double>();
        };
        if (value->is_array()) {
            if (static_cast<double>(value->size()) != layers)
                fail(used, "lists " + std::to_string(value->size()) +
                               " layers but num_hidden_layers is " + formatNumber(layers, 9));
            if (value->empty() || !whole((*value)[0]))
                fail(used + "/0", "must be a whole number from 0");
            for (std::size_t i = 1; i < value->size(); ++i)
                if ((*value)[i] != (*value)[0])
                    fail(used + "/" + std::to_string(i),
                         "differs from layer 0's: a width or count that changes by layer is not "
                         "read");
            return (*value)[0].get<double>();
        }
        if (!whole(*value))
            fail(used, "must be a whole number from 0, or one per layer");
        return value->get<double>();
    }

    /** A JSON list under `name`, or nullptr. */
    const json *list(const char *name)
    {
        std::string used;
        const json *value = find({name}, &used);
        if (value && !value->is_array())
            fail(used, "must be a list");
        return value;
    }

    std::string text(const char *name) const
    {
        for (const json *object : {&m_root, m_outer}) {
            if (!object)
                continue;
            auto it = object->find(name);
            if (it != object->end() && it->is_string())
                return it->get<std::string>();
        }
        return {};
    }

private:
    const json &m_root;
    const json *m_outer;
    std::set<std::string> m_used;
};

/** Why a config key the import did not read can change memory or speed, or nullptr for a key
 *  that cannot (token ids, dropout, initialisation, RoPE settings, ...). */
const char *sizeChangingKey(const std::string &key)
{
    struct Rule
    {
        const char *fragment;
        const char *why;
    };
    static constexpr Rule kRules[] = {
        {"text_config", "a multimodal config: the language model's sizes are nested in it"},
        {"vision_config", "a vision tower: its parameters are not counted"},
        {"quantization_config", "the checkpoint is quantised: its weight bytes differ from the "
                                "scenario's format"},
        {"layer_types", "a per-layer pattern of attention kinds (sliding, full, linear)"},
        {"_pattern", "a per-layer attention pattern"},
        {"attention_chunk", "chunked attention holds at most a chunk of KV on some layers"},
        {"no_rope_layers", "a per-layer pattern"},
        {"full_attention_interval", "only some layers attend fully; the others keep a fixed state"},
        {"linear_",
         "linear attention (DeltaNet) layers keep a fixed state, not a growing KV cache"},
        {"ssm", "state-space (Mamba) layers keep a fixed state, not a growing KV cache"},
        {"mamba", "state-space (Mamba) layers keep a fixed state, not a growing KV cache"},
        {"expert", "mixture-of-experts weights: total and active parameters differ"},
        {"moe", "mixture-of-experts weights: total and active parameters differ"},
        {"dense_replace", "some layers are dense, others mixture-of-experts"},
        {"mlp_only_layers", "some layers are dense, others mixture-of-experts"},
        {"sparse_step", "some layers are dense, others mixture-of-experts"},
        {"nextn_predict", "extra multi-token-prediction layers add weights"},
        {"sliding_window", "a sliding window caps the KV cache of some layers"},
        {"lora_rank", "multi-head latent attention caches a compressed latent"},
    };
    for (const Rule &rule : kRules) {
        if (key.find(rule.fragment) != std::string::npos)
            return rule.why;
    }
    return nullptr;
}

/** A warning for each key the import left unread that can change memory or speed (issue #22:
 *  a config relabelled to a family it does not match must not give silently wrong numbers). */
void warnUnreadSizeKeys(const json &object, const std::string &prefix, const Config &c,
                        const char *family, Diagnostics &warnings)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (c.used().contains(it.key()) || it->is_null() || *it == false)
            continue;
        if (const char *why = sizeChangingKey(it.key()))
            warnings.push_back(
                {prefix + "/" + it.key(), "not read by the " + std::string(family) +
                                              " import, yet it can change memory or speed (" + why +
                                              "): the estimate ignores it; check that the "
                                              "model_type matches the file"});
    }
}

std::string modelTypeOf(const json &object)
{
    auto it = object.find("model_type");
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/** The family, and the object that holds the language model's sizes. */
struct Located
{
    const FamilyInfo *family = nullptr;
    const json *config = nullptr;
    const json *outer = nullptr;  ///< the multimodal wrapper around config, if any
    const json *vision = nullptr; ///< a multimodal model's vision_config, if any
    /// a wrapper this import does not know by name ("kimi_k25"), read through its text_config
    std::string unknownWrapper;
    /// a model_type this import does not know, read as a standard decoder (kStandardDecoder)
    std::string unknownType;
};

/** Why a config under an unknown model_type cannot be read as a standard decoder (Llama's
 *  layout: q/k/v/o projections, a gated MLP, RMS norms), or empty when it can: a causal language
 *  model's architecture, the five standard sizes, a SiLU (gated) MLP, and no key of a layer kind
 *  the standard layout cannot size (experts, state-space or linear layers, latent attention). */
std::string standardDecoderRefusal(const json &config, const json &root)
{
    const json *architectures = nullptr;
    for (const json *object : {&config, &root})
        if (auto it = object->find("architectures"); it != object->end() && it->is_array()) {
            architectures = &*it;
            break;
        }
    if (!architectures)
        return "the file names no architectures, so it may not be a causal language model";
    bool causal = false;
    std::string names;
    for (const json &name : *architectures) {
        if (!name.is_string())
            continue;
        const std::string text = name.get<std::string>();
        causal |= text.ends_with("ForCausalLM") || text.ends_with("ForConditionalGeneration");
        names += (names.empty() ? "" : ", ") + text.substr(0, 60);
    }
    if (!causal)
        return "its architectures (" + names + ") name no causal language model";
    if (auto it = config.find("is_encoder_decoder"); it != config.end() && *it == true)
        return "it is an encoder-decoder (is_encoder_decoder)";
    std::string missing;
    for (const char *key : {"hidden_size", "num_hidden_layers", "num_attention_heads",
                            "intermediate_size", "vocab_size"})
        if (!config.contains(key) || !config[key].is_number())
            missing += (missing.empty() ? "" : ", ") + std::string(key);
    if (!missing.empty())
        return "the standard sizes are missing (" + missing + ")";
    const auto act = config.find("hidden_act");
    const std::string activation =
        act != config.end() && act->is_string() ? act->get<std::string>() : std::string();
    if (activation.empty())
        return "no hidden_act says whether the MLP is gated (SiLU is read as gated, Llama's)";
    if (activation != "silu" && activation != "swish" && activation != "swiglu")
        return "hidden_act \"" + activation.substr(0, 30) +
               "\" does not say whether the MLP is gated (SiLU is read as gated, Llama's)";
    const auto window = config.find("sliding_window");
    const auto windowOn = config.find("use_sliding_window");
    if (window != config.end() && !window->is_null() && !config.contains("layer_types") &&
        !(windowOn != config.end() && *windowOn == false))
        return "sliding_window without layer_types: which layers slide is each family's own "
               "rule";
    for (auto it = config.begin(); it != config.end(); ++it) {
        const json &value = *it;
        if (value.is_null() || value == false || value == 0 || value == json::array() ||
            value == json::object())
            continue;
        for (const char *kind : {"expert", "moe", "ssm", "mamba", "linear_", "lora_rank",
                                 "dense_replace", "mlp_only_layers", "sparse_step",
                                 "full_attention_interval", "attention_chunk", "_pattern"})
            if (it.key().find(kind) != std::string::npos)
                return "\"" + it.key().substr(0, 60) + "\" is a layer kind the standard layout " +
                       "cannot size (" + sizeChangingKey(it.key()) + ")";
        // heads, KV or biases laid out other than the standard keys say (DeciLM's KV heads per
        // layer, multi-query, query groups, Hunyuan's cross-layer KV sharing, biases by a
        // family's own rule) and sizes nested in an object of their own (DBRX's ffn_config)
        for (const char *kind :
             {"per_layer", "multi_query", "query_group", "use_cla", "cla_share", "use_bias"})
            if (it.key().find(kind) != std::string::npos)
                return "\"" + it.key().substr(0, 60) +
                       "\" lays out heads, KV or biases in a way the standard keys do not say";
        const auto nestedSizes = [](const std::string &key) {
            for (const char *part : {"ffn", "attn", "attention", "mlp", "moe", "layer", "block"})
                if (key.find(part) != std::string::npos)
                    return true;
            return false;
        };
        if (value.is_object() && nestedSizes(it.key()))
            return "\"" + it.key().substr(0, 60) +
                   "\" holds sizes of its own, which the standard layout does not read";
    }
    return {};
}

/** Edits (insert, delete, replace) between two short strings; at most 64 characters read. */
std::size_t editDistance(std::string_view a, std::string_view b)
{
    a = a.substr(0, 64);
    b = b.substr(0, 64);
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

/** The family read by name nearest an unknown model_type (issue #44, item 6): by name (a shared
 *  stem of five characters or more, or two edits or fewer), else by the layer kinds its keys
 *  name; with how it was found. */
std::string nearestFamily(const std::string &given, const json &config)
{
    // compared as written by hand: case and surrounding spaces aside
    std::string type;
    for (char ch : given)
        if (ch != ' ' && ch != '\t')
            type += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const FamilyInfo *best = nullptr;
    std::size_t bestPrefix = 0;
    for (const FamilyInfo &info : kFamilies) {
        const std::string_view key(info.key);
        std::size_t prefix = 0;
        while (prefix < key.size() && prefix < type.size() && key[prefix] == type[prefix])
            ++prefix;
        if (prefix > bestPrefix) {
            bestPrefix = prefix;
            best = &info;
        }
    }
    if (best && bestPrefix >= 5)
        return std::string(best->key) + " (by name)";
    for (const FamilyInfo &info : kFamilies)
        if (editDistance(type, info.key) <= 2)
            return std::string(info.key) + " (by name)";
    auto has = [&config](std::string_view part) {
        for (auto it = config.begin(); it != config.end(); ++it)
            if (it.key().find(part) != std::string::npos && !it.value().is_null() &&
                it.value() != false && it.value() != 0)
                return true;
        return false;
    };
    if (has("mamba") || has("ssm"))
        return "nemotron_h (its keys name state-space layers)";
    if (has("linear_"))
        return "qwen3_next (its keys name linear-attention layers)";
    if (has("expert") || has("moe"))
        return "qwen3_moe (its keys name experts)";
    return "llama (a decoder's standard keys)";
}

bool knownFamily(const std::string &type)
{
    return std::any_of(std::begin(kFamilies), std::end(kFamilies),
                       [&](const FamilyInfo &info) { return type == info.key; });
}

Located identify(const json &root)
{
    Located at;
    at.config = &root;
    std::string type = modelTypeOf(root);
    if (type == "RefinedWebModel" || type == "RefinedWeb")
        type = "falcon";
    if (type.empty())
        fail("/model_type", "missing: the config does not say which architecture it is");
    for (const Wrapper &wrapper : kWrappers) {
        if (type != wrapper.key)
            continue;
        if (auto vision = root.find("vision_config"); vision != root.end() && vision->is_object())
            at.vision = &*vision;
        auto text = root.find("text_config");
        if (text != root.end() && text->is_object()) {
            at.config = &*text;
            at.outer = &root;
            const std::string inner = modelTypeOf(*text);
            type = inner.empty() ? wrapper.textType : inner;
        } else if (root.contains("num_hidden_layers") && !root["num_hidden_layers"].is_null()) {
            type = wrapper.textType; // older Qwen2-VL files keep the text sizes at the top
        } else {
            fail("/text_config",
                 "missing: a " + type + " config keeps the language model's sizes in text_config");
        }
        break;
    }
    // any other wrapper whose text_config names a family this import reads (Kimi K2.5's
    // kimi_k25 around a kimi_k2 text model): the language model is the text_config's
    if (at.outer == nullptr && !knownFamily(type)) {
        auto text = root.find("text_config");
        if (text != root.end() && text->is_object() && knownFamily(modelTypeOf(*text))) {
            if (auto vision = root.find("vision_config");
                vision != root.end() && vision->is_object())
                at.vision = &*vision;
            at.config = &*text;
            at.outer = &root;
            at.unknownWrapper = type.substr(0, 40);
            type = modelTypeOf(*text);
        }
    }
    for (const Refusal &refusal : kRefusals) {
        if (type == refusal.key)
            fail("/model_type", "\"" + type + "\" is not supported: " + refusal.why);
    }
    for (const FamilyInfo &info : kFamilies) {
        if (type == info.key) {
            at.family = &info;
            return at;
        }
    }
    const auto given = [&](const char *key) {
        auto it = at.config->find(key);
        return it != at.config->end() && !it->is_null();
    };
    if (given("kv_lora_rank") || given("q_lora_rank"))
        fail("/model_type", "\"" + type.substr(0, 40) +
                                "\" uses multi-head latent attention (MLA) under a family this "
                                "import does not know (deepseek_v2, deepseek_v3, deepseek_v32, "
                                "kimi_k2, glm_moe_dsa and glm4_moe_lite are read; the nearest by "
                                "name is " +
                                nearestFamily(type, *at.config) + ")");
    if (auto text = root.find("text_config"); text != root.end() && text->is_object()) {
        const std::string inner = modelTypeOf(*text).substr(0, 40);
        fail("/model_type", "unknown architecture \"" + type.substr(0, 40) +
                                "\" around a text_config " +
                                (inner.empty() ? std::string("that names no model_type")
                                               : "of model_type \"" + inner +
                                                     "\", which this import does not "
                                                     "know either") +
                                "; the nearest family read by name is " +
                                nearestFamily(inner.empty() ? type : inner, *text));
    }
    const std::string refusal = standardDecoderRefusal(*at.config, root);
    if (refusal.empty()) {
        at.family = &kStandardDecoder;
        at.unknownType = type.substr(0, 40);
        return at;
    }
    const std::size_t families = std::size(kFamilies) + std::size(kWrappers);
    // a causal model gets the family nearest it and what stands in the way; others are not
    // what the app models
    const bool causal = refusal.find("no causal language model") == std::string::npos &&
                        refusal.find("encoder-decoder") == std::string::npos;
    fail("/model_type",
         "unknown architecture \"" + type.substr(0, 40) +
             "\", and not read as a standard decoder: " + refusal +
             (causal ? ". The nearest family read by name is " + nearestFamily(type, *at.config) +
                           "; a reader for what differs would import it"
                     : std::string(": the app models decoder-only language models")) +
             " (one of " + std::to_string(families) +
             " families read by name; docs/user-guide.md lists them)");
}

/** Sizes a family's config class defaults, so a config.json may leave them out. */
struct FamilyDefault
{
    Family family;
    const char *key;
    double value;
    const char *origin;
};
constexpr FamilyDefault kDefaults[] = {
    // transformers Gemma3TextConfig: the 4B and 27B text_config leave several of these out
    {Family::Gemma3, "vocab_size", 262208, "Gemma3TextConfig default"},
    {Family::Gemma3, "num_attention_heads", 8, "Gemma3TextConfig default"},
    {Family::Gemma3, "num_key_value_heads", 4, "Gemma3TextConfig default"},
    {Family::Gemma3, "head_dim", 256, "Gemma3TextConfig default"},
    {Family::Gemma3, "hidden_size", 2304, "Gemma3TextConfig default"},
    {Family::Gemma3, "intermediate_size", 9216, "Gemma3TextConfig default"},
    {Family::Gemma3, "num_hidden_layers", 26, "Gemma3TextConfig default"},
    {Family::Gemma3, "sliding_window", 4096, "Gemma3TextConfig default"},
    {Family::Gemma3, "max_position_embeddings", 131072, "Gemma3TextConfig default"},
    // transformers Gemma4TextConfig
    {Family::Gemma4, "vocab_size", 262144, "Gemma4TextConfig default"},
    {Family::Gemma4, "num_attention_heads", 8, "Gemma4TextConfig default"},
    {Family::Gemma4, "num_key_value_heads", 4, "Gemma4TextConfig default"},
    {Family::Gemma4, "head_dim", 256, "Gemma4TextConfig default"},
    {Family::Gemma4, "hidden_size", 2304, "Gemma4TextConfig default"},
    {Family::Gemma4, "intermediate_size", 9216, "Gemma4TextConfig default"},
    {Family::Gemma4, "num_hidden_layers", 30, "Gemma4TextConfig default"},
    {Family::Gemma4, "sliding_window", 512, "Gemma4TextConfig default"},
    {Family::Gemma4, "max_position_embeddings", 131072, "Gemma4TextConfig default"},
    {Family::Gemma4, "global_head_dim", 512, "Gemma4TextConfig default"},
    // transformers Llama4TextConfig
    {Family::Llama4, "attention_chunk_size", 8192, "Llama4TextConfig default"},
    {Family::Llama4, "interleave_moe_layer_step", 1, "Llama4TextConfig default"},
    {Family::Llama4, "num_experts_per_tok", 1, "Llama4TextConfig default"},
    {Family::Llama4, "intermediate_size_mlp", 16384, "Llama4TextConfig default"},
};

const FamilyDefault *familyDefault(Family family, const char *key)
{
    for (const FamilyDefault &d : kDefaults) {
        if (d.family == family && std::string_view(d.key) == key)
            return &d;
    }
    return nullptr;
}

/** What one layer is: its attention kind (and window) and whether its MLP is MoE. */
struct LayerKind
{
    AttentionKind attention = AttentionKind::Full;
    double window = kUnset;
    bool moe = false;
    // Gemma 4: global layers have their own KV heads and head size; KV-sharing layers (attention
    // Shared) keep the type they share, and may have a double-wide MLP
    double kvHeads = kUnset;
    double headDim = kUnset;
    double queryHeads = kUnset; ///< Step 3.5's sliding layers: their own query heads
    bool global = false;
    double mlpScale = 1;
    bool noMlp = false; ///< Nemotron-H's Mamba-2 and attention layers: the mixer alone

    bool operator==(const LayerKind &other) const
    {
        const auto same = [](double a, double b) { return a == b || (!isSet(a) && !isSet(b)); };
        return attention == other.attention && moe == other.moe && same(window, other.window) &&
               same(kvHeads, other.kvHeads) && same(headDim, other.headDim) &&
               same(queryHeads, other.queryHeads) && global == other.global &&
               mlpScale == other.mlpScale && noMlp == other.noMlp;
    }
};

/** A list of layer indices (mlp_only_layers), each checked against the layer count. */
std::set<double> layerIndices(Config &c, const char *name, double layers)
{
    std::set<double> out;
    if (const json *list = c.list(name)) {
        for (const json &item : *list) {
            if (!item.is_number_integer() || item.get<double>() < 0 || item.get<double>() >= layers)
                fail(c.pathOf(name),
                     "must list layer indices from 0 to " + formatNumber(layers - 1, 9));
            out.insert(item.get<double>());
        }
    }
    return out;
}

/** The checkpoint's own weight format from quantization_config, with a note. */
void readQuantisation(Config &c, HfImport &out, double expertShare)
{
    std::string where;
    const json *q = c.find({"quantization_config"}, &where);
    if (!q)
        return;
    if (!q->is_object())
        fail(where, "must be an object");
    auto text = [&](const char *key) {
        auto it = q->find(key);
        return it != q->end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    auto number = [&](const char *key) {
        auto it = q->find(key);
        return it != q->end() && it->is_number() ? it->get<double>() : kUnset;
    };
    const std::string method = text("quant_method");
    out.quantised = true;
    std::optional<NumericFormat> format;
    double group = kUnset;
    std::string note;
    if (method == "fp8") {
        format = NumericFormat::Fp8;
        note = "the checkpoint is FP8 (E4M3) with block scales";
    } else if (method == "mxfp4") {
        format = NumericFormat::Mxfp4;
        note = "the checkpoint's MoE experts are MXFP4 (" + formatNumber(100.0 * expertShare, 3) +
               " % of the parameters)";
    } else if (method == "awq" || method == "gptq") {
        const double bits = isSet(number("bits")) ? number("bits") : number("w_bit");
        group = isSet(number("group_size")) ? number("group_size") : number("q_group_size");
        if (bits == 4)
            format = NumericFormat::Int4;
        else if (bits == 8)
            format = NumericFormat::Int8;
        note = "the checkpoint is " + method + " " + formatNumber(bits, 3) + "-bit" +
               (isSet(group) ? " with groups of " + formatNumber(group, 6) : std::string());
    } else if (method == "compressed-tensors" || method == "modelopt") {
        // NVFP4 (4-bit float, groups of 16) or FP8, as llm-compressor and ModelOpt write them
        const std::string dump = q->dump();
        if (dump.find("NVFP4") != std::string::npos || dump.find("nvfp4") != std::string::npos ||
            (dump.find("\"num_bits\":4") != std::string::npos &&
             dump.find("\"type\":\"float\"") != std::string::npos)) {
            format = NumericFormat::Nvfp4;
            note = "the checkpoint is NVFP4 (4-bit float, a scale per 16 weights)";
        } else if (dump.find("FP8") != std::string::npos ||
                   (dump.find("\"num_bits\":8") != std::string::npos &&
                    dump.find("\"type\":\"float\"") != std::string::npos)) {
            format = NumericFormat::Fp8;
            note = "the checkpoint is FP8";
        } else if (dump.find("\"num_bits\":4") != std::string::npos) {
            format = NumericFormat::Int4;
            note = "the checkpoint is 4-bit integer";
        } else if (dump.find("\"num_bits\":8") != std::string::npos) {
            format = NumericFormat::Int8;
            note = "the checkpoint is 8-bit integer";
        }
    } else if (method == "bitsandbytes") {
        const bool four = q->value("load_in_4bit", false);
        format = four ? NumericFormat::Int4 : NumericFormat::Int8;
        note = std::string("the checkpoint is bitsandbytes ") + (four ? "4-bit (NF4)" : "8-bit");
    }
    if ((method == "compressed-tensors" || method == "modelopt") && format &&
        takesGroupScales(*format) && *format != NumericFormat::Fp8) {
        // an integer checkpoint's groups: config_groups' weights (llm-compressor), else the top
        if (auto groups = q->find("config_groups"); groups != q->end() && groups->is_object())
            for (const json &g : *groups)
                if (g.is_object() && g.contains("weights") && g["weights"].is_object() &&
                    g["weights"].value("group_size", json()).is_number())
                    group = g["weights"]["group_size"].get<double>();
        if (!isSet(group))
            group = number("group_size");
        if (isSet(group) && !(group >= 1 && group <= 1e6))
            group = kUnset;
    }
    if (method == "awq" || method == "gptq") { // the bits of a packed word, known or not
        const double bits = isSet(number("bits")) ? number("bits") : number("w_bit");
        if (isSet(bits) && bits >= 1 && bits <= 16)
            out.checkpointBits = bits;
    } else if (format) {
        out.checkpointBits = 8.0 * nominalBytes(*format);
    }
    if (!format) {
        out.warnings.push_back({where, "quantisation \"" + method.substr(0, 40) +
                                           "\" is not recognised: the scenario keeps its own "
                                           "weight format, so the weight bytes may be wrong"});
        return;
    }
    out.checkpointFormat = format;
    out.checkpointGroupSize = group;
    // what the method leaves at the checkpoint's 16 bits: the embedding table and output head
    // and the norms always (no method here converts them), everything but the experts for
    // MXFP4 (transformers converts gpt-oss's experts only), and what the file's lists name
    const std::string dtype =
        c.text("torch_dtype").empty() ? c.text("dtype") : c.text("torch_dtype");
    const NumericFormat kept = dtype == "float16"   ? NumericFormat::Fp16
                               : dtype == "float32" ? NumericFormat::Fp32
                                                    : NumericFormat::Bf16;
    auto keep = [&](WeightPart part) { out.partFormats[index(part)] = kept; };
    keep(WeightPart::Embeddings);
    keep(WeightPart::Other);
    if (method == "mxfp4") {
        keep(WeightPart::Attention);
        keep(WeightPart::Mlp);
    }
    // a list's module keeps a whole part at 16 bits when it names every layer's (a wildcard or
    // regular expression, or each layer one by one); one layer's module, or a gate (a router,
    // a shared expert's gate: a vector a layer), leaves the part in the checkpoint's format
    double attentionLayers = 0, moeLayers = 0;
    for (const LayerGroup &g : layerGroupsOf(out.model)) {
        attentionLayers += g.attention == AttentionKind::None ? 0.0 : g.layers;
        moeLayers += g.mlp == MlpKind::Moe ? g.layers : 0.0;
    }
    std::array<std::set<int>, kWeightParts.size()> listedLayers;
    std::array<bool, kWeightParts.size()> everyLayer{};
    std::string partial;
    for (const char *list :
         {"modules_to_not_convert", "ignore", "exclude_modules", "llm_int8_skip_modules"}) {
        auto it = q->find(list);
        if (it == q->end() || !it->is_array())
            continue;
        for (const json &name : *it) {
            if (!name.is_string())
                continue;
            const std::string module = name.get<std::string>();
            const std::string last = module.substr(module.find_last_of('.') + 1);
            if (last.find("gate") != std::string::npos &&
                last.find("gate_proj") == std::string::npos &&
                last.find("gate_up") == std::string::npos)
                continue; // a router or a gate: the small rest, already at 16 bits
            const bool attention = module.find("attn") != std::string::npos ||
                                   module.find("attention") != std::string::npos;
            const bool shared = module.find("shared_expert") != std::string::npos;
            if (!attention && !shared)
                continue;
            const WeightPart part = attention ? WeightPart::Attention : WeightPart::Mlp;
            // "model.layers.12.self_attn": one layer; "model.layers.*.self_attn", "re:.*attn",
            // "self_attn": every layer
            const std::size_t at = module.find("layers.");
            std::size_t digits = at == std::string::npos ? 0 : at + 7;
            int layer = -1;
            if (at != std::string::npos && digits < module.size() &&
                std::isdigit(static_cast<unsigned char>(module[digits]))) {
                layer = 0;
                while (digits < module.size() &&
                       std::isdigit(static_cast<unsigned char>(module[digits])) && layer < 100000)
                    layer = layer * 10 + (module[digits++] - '0');
            }
            if (layer < 0)
                everyLayer[index(part)] = true;
            else
                listedLayers[index(part)].insert(layer);
        }
    }
    const double layersOf[] = {0, attentionLayers, moeLayers, 0, 0};
    for (WeightPart part : {WeightPart::Attention, WeightPart::Mlp}) {
        const double listed = double(listedLayers[index(part)].size());
        if (everyLayer[index(part)] || (listed > 0 && listed >= layersOf[index(part)]))
            keep(part);
        else if (listed > 0)
            partial += "; " + formatNumber(listed, 6) + " of " +
                       formatNumber(layersOf[index(part)], 6) + " layers' " +
                       std::string(weightPartLabel(part)) +
                       " are listed as unconverted: counted in the checkpoint's format";
    }
    std::string keptParts;
    for (WeightPart part : kWeightParts)
        if (out.partFormats[index(part)] && !(out.model.partParameters[index(part)] == 0.0))
            keptParts += (keptParts.empty() ? "" : ", ") + std::string(weightPartLabel(part));
    std::string formats;
    for (WeightPart part : kWeightParts)
        if (out.partFormats[index(part)])
            formats += std::string(formats.empty() ? "" : ", ") + "\"" +
                       std::string(weightPartKey(part)) + "\": \"" +
                       std::string(formatKey(*out.partFormats[index(part)])) + "\"";
    out.model.notes["weight_format"] =
        note + ": the checkpoint as published is serving \"weight_format\": \"" +
        std::string(formatKey(*format)) + "\"" +
        (isSet(group) ? ", \"quant_group_size\": " + formatNumber(group, 9) : std::string()) +
        " with its " + keptParts + " at " + std::string(formatLabel(kept)) +
        ", \"weight_formats\": {" + formats + "} (File > Import Model sets them)" + partial;
}

/** What a generic read assumed (issue #44): the layout, the keys it used and the ones it did not
 *  (beside the metadata every config carries), in the parameter note; a parameter count the
 *  file states is checked against the count from the keys. */
void describeStandardDecoder(const json &config, const std::string &type, const Config &c,
                             ModelSpec &m, Diagnostics &warnings)
{
    static const std::set<std::string> kMetadata = {
        "architectures",        "model_type",      "torch_dtype",       "dtype",
        "transformers_version", "bos_token_id",    "eos_token_id",      "pad_token_id",
        "initializer_range",    "rms_norm_eps",    "layer_norm_eps",    "use_cache",
        "rope_theta",           "rope_scaling",    "rope_parameters",   "auto_map",
        "_name_or_path",        "tokenizer_class", "pretraining_tp",    "attention_dropout",
        "hidden_dropout",       "hidden_act",      "use_sliding_window"};
    std::string used;
    std::string ignored;
    std::size_t ignoredCount = 0;
    for (auto it = config.begin(); it != config.end(); ++it) {
        if (c.used().contains(it.key()))
            used += (used.empty() ? "" : ", ") + it.key();
        else if (!kMetadata.contains(it.key()) && !it.key().ends_with("_dropout") &&
                 ++ignoredCount <= 12)
            ignored += (ignored.empty() ? "" : ", ") + it.key().substr(0, 40);
    }
    if (ignoredCount > 12)
        ignored += " and " + std::to_string(ignoredCount - 12) + " more";
    std::string note = "model_type " + type +
                       " is not a family this import knows by name: read as a standard decoder "
                       "(Llama's layout: q, k, v and o projections, a gated MLP, RMS norms); "
                       "read: " +
                       used + (ignored.empty() ? "" : "; not read: " + ignored);
    auto &parameters = m.notes["parameters"];
    parameters += (parameters.empty() ? "" : "; ") + note;
    warnings.push_back({"/model_type", "\"" + type +
                                           "\" read as a standard decoder (Llama's layout); the "
                                           "parameter note names the keys read and not read: "
                                           "check the count against the publisher's"});
    for (const char *key : {"num_parameters", "total_parameters", "n_parameters"}) {
        auto it = config.find(key);
        if (it == config.end() || !it->is_number() || !(it->get<double>() > 0.0))
            continue;
        const double stated = it->get<double>();
        if (std::abs(m.parameters / stated - 1.0) > 0.02)
            warnings.push_back({"/" + std::string(key),
                                "the file states " + formatNumber(stated, 4) +
                                    " parameters, the standard layout counts " +
                                    formatNumber(m.parameters, 4) +
                                    ": the model differs from Llama's layout; check its family"});
    }
}

HfImport import(const json &root)
{
    if (!root.is_object())
        fail("", "a config.json must be a JSON object");
    const Located at = identify(root);
    const FamilyInfo &family = *at.family;
    Config c(*at.config, at.outer);
    HfImport out;
    out.family = family.key;
    ModelSpec &m = out.model;
    const Family f = family.family;
    const bool smolLm3 = std::string_view(family.key) == "smollm3";
    const bool standard = &family == &kStandardDecoder; // an unknown model_type, read generically

    // A size the family's config class defaults when the file leaves it out.
    auto size = [&](std::initializer_list<const char *> names, bool required, const char *field) {
        double value = c.count(names, false, m, field);
        if (isSet(value))
            return value;
        if (const FamilyDefault *d = familyDefault(f, *names.begin())) {
            if (field)
                m.sources[field] = std::string(d->origin) + ": " + d->key + " = " +
                                   formatNumber(d->value, 9) + " (the file leaves it out)";
            return d->value;
        }
        return c.count(names, required, m, field);
    };

    m.layers = size({"num_hidden_layers", "n_layer", "num_layers"}, true, "layers");
    m.hiddenSize = size({"hidden_size", "n_embd", "n_embed", "d_model"}, true, "hidden_size");
    m.attentionHeads = size({"num_attention_heads", "n_head"}, true, "attention_heads");
    m.vocabSize = size({"vocab_size"}, true, "vocab_size");
    const double L = m.layers;
    // a scenario holds at most 4,096 layers: said before a list per layer is made (a
    // 100-million-layer file took 6 GB before it was refused)
    if (L > 4096)
        fail(c.pathOf("num_hidden_layers"), formatNumber(L, 12) + " layers: at most 4,096");
    const double h = m.hiddenSize;
    const double H = m.attentionHeads;

    // KV heads: falcon's multi_query means one KV head unless the newer decoder architecture
    // says otherwise (Falcon-7B's num_kv_heads = 71 is ignored); elsewhere an absent
    // num_key_value_heads means no grouped-query attention.
    const bool newFalcon = f == Family::Falcon && c.flag("new_decoder_architecture", false);
    if (f == Family::Falcon && !newFalcon && c.flag("multi_query", false)) {
        m.kvHeads = 1;
        m.sources["kv_heads"] = "config.json: multi_query = true (one KV head)";
    } else if (f == Family::Falcon && newFalcon) {
        m.kvHeads = c.count({"num_kv_heads", "n_head_kv"}, true, m, "kv_heads");
    } else {
        // Step 3.5 names them attention groups, and every layer has them
        m.kvHeads = f == Family::Step3p5
                        ? size({"num_attention_groups"}, true, "kv_heads")
                        : size({"num_key_value_heads", "num_kv_heads"}, false, "kv_heads");
        if (!isSet(m.kvHeads)) {
            m.kvHeads = H;
            m.sources["kv_heads"] =
                "config.json: no num_key_value_heads, so every head has its own K and V";
        }
    }
    if (m.kvHeads > H)
        fail(c.pathOf(f == Family::Step3p5 ? "num_attention_groups" : "num_key_value_heads"),
             "more KV heads than attention heads");

    // Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): the cache holds one latent of
    // kv_lora_rank plus the shared RoPE key per token and layer.
    const bool mla = f == Family::DeepSeek;
    double qLora = kUnset, kvLora = kUnset, ropeDim = kUnset, nopeDim = kUnset, vHeadDim = kUnset;
    double indexHeads = 0, indexDim = 0, indexTopk = kUnset;
    if (mla) {
        kvLora = c.count({"kv_lora_rank"}, true, m, nullptr);
        qLora =
            c.count({"q_lora_rank"}, false, m, nullptr); // null in V2-Lite: q is projected directly
        ropeDim = c.count({"qk_rope_head_dim"}, true, m, nullptr);
        nopeDim = c.count({"qk_nope_head_dim"}, true, m, nullptr);
        vHeadDim = c.count({"v_head_dim"}, true, m, nullptr);
        // DeepSeek-V3.2's and GLM-5's indexer (DSA): index_n_heads query heads of index_head_dim
        // scoring every cached token through one key per token and layer, which the cache holds
        // beside the latent; attention then reads the index_topk tokens it picks
        indexHeads = c.countOrZero("index_n_heads", 0);
        if (indexHeads > 0) {
            indexDim = c.count({"index_head_dim"}, true, m, nullptr);
            indexTopk = c.count({"index_topk"}, true, m, nullptr);
            c.find({"indexer_rope_interleave"});
        }
        m.headDim = nopeDim + ropeDim;
        m.sources["head_dim"] = "config.json: qk_nope_head_dim + qk_rope_head_dim";
    } else {
        // An explicit head_dim wins over hidden / heads (Gemma 2: 256, not 3584 / 16 = 224).
        m.headDim = size({"head_dim", "attention_head_dim"}, false, "head_dim");
        if (!isSet(m.headDim)) {
            m.headDim = h / H;
            if (std::floor(m.headDim) != m.headDim)
                fail(c.pathOf("hidden_size"), "hidden_size is not a multiple of the attention "
                                              "heads and no head_dim is given");
            m.sources["head_dim"] = "hidden_size / attention heads";
        }
    }
    if (m.headDim > 1024)
        fail(c.pathOf("head_dim"), "larger than 1,024");
    const double hd = m.headDim;
    const double qWidth = H * hd;
    const double kvWidth = m.kvHeads * hd;

    // Mixture of experts: routed experts, experts per token, their width, shared experts.
    double experts = 0, perToken = 0, expertWidth = 0, shared = 0, sharedWidth = 0;
    bool routerBias = false;
    bool sharedGate = false;
    switch (f) {
    case Family::Mixtral:
    case Family::GptOss:
    case Family::Llama4:
    case Family::MiniMaxM2:
        experts = c.count({"num_local_experts", "num_experts"}, true, m, "experts");
        perToken = size({"num_experts_per_tok", "experts_per_token"}, true, "experts_per_token");
        expertWidth = size({"intermediate_size"}, true, "intermediate_size");
        routerBias =
            f == Family::GptOss || (f == Family::MiniMaxM2 && c.flag("use_routing_bias", false));
        if (f == Family::Llama4) {
            shared = 1;
            sharedWidth = expertWidth;
        }
        if (f == Family::GptOss)
            c.find({"experts_per_token", "num_experts_per_tok"}); // both names are written
        if (f == Family::MiniMaxM2) {
            sharedWidth = c.countOrZero("shared_intermediate_size", 0);
            shared = sharedWidth > 0 ? 1 : 0;
        }
        break;
    case Family::Qwen3Moe:
    case Family::Qwen3Next:
        // Qwen3.5's dense models share the Qwen3-Next layout without experts
        experts = c.count({"num_experts"}, f == Family::Qwen3Moe, m, "experts");
        if (!isSet(experts)) {
            experts = 0;
            break;
        }
        perToken = c.count({"num_experts_per_tok"}, true, m, "experts_per_token");
        expertWidth = c.count({"moe_intermediate_size"}, true, m, nullptr);
        sharedWidth = c.countOrZero("shared_expert_intermediate_size", 0);
        shared = sharedWidth > 0 ? 1 : 0;
        sharedGate = shared > 0; // Qwen's shared expert has a one-output gate
        break;
    case Family::Gemma4:
        // 26B-A4B: every layer adds a routed MoE block beside its dense MLP
        if (!c.flag("enable_moe_block", false))
            break;
        experts = c.count({"num_experts"}, true, m, "experts");
        perToken = c.count({"top_k_experts"}, true, m, "experts_per_token");
        expertWidth = c.count({"moe_intermediate_size"}, true, m, nullptr);
        break;
    case Family::DeepSeek:
    case Family::Glm4Moe:
        experts = c.count({"n_routed_experts"}, true, m, "experts");
        perToken = c.count({"num_experts_per_tok"}, true, m, "experts_per_token");
        expertWidth = c.count({"moe_intermediate_size"}, true, m, nullptr);
        shared = c.countOrZero("n_shared_experts", 0);
        sharedWidth = expertWidth;
        // DeepSeek-V3's noaux_tc routing (and GLM-4.5's) adds one score-correction bias per expert
        // GLM-4.7-Flash's router is GLM-4.5's: the bias is there whatever the file names
        routerBias = f == Family::Glm4Moe || std::string_view(family.key) == "glm4_moe_lite" ||
                     c.text("topk_method") == "noaux_tc";
        break;
    case Family::Hunyuan: {
        // Hunyuan-A13B: routed experts of moe_intermediate_size, moe_topk per token, and a
        // shared MLP of intermediate_size (use_mixed_mlp_moe) beside them; each may be a list,
        // one per layer, of one value
        if (c.flag("use_cla", false))
            fail(c.pathOf("use_cla"), "cross-layer attention (CLA) shares K and V between layers: "
                                      "not read for hunyuan yet");
        if (c.flag("use_mla", false))
            fail(c.pathOf("use_mla"), "latent attention under hunyuan is not read");
        c.find({"cla_share_factor"}); // only with use_cla
        const double routed = c.count({"num_experts"}, false, m, "experts");
        if (!isSet(routed) || routed <= 1) {
            experts = 0;
            break;
        }
        experts = routed;
        perToken = c.uniformCount("moe_topk", m.layers);
        const double moeWidth = c.uniformCount("moe_intermediate_size", m.layers);
        if (!isSet(perToken))
            fail(c.pathOf("moe_topk"), "missing: the experts each token uses");
        if (perToken < 1)
            fail(c.pathOf("moe_topk"), "must be 1 or more: the experts each token uses");
        if (perToken > experts)
            fail(c.pathOf("moe_topk"), "more experts per token (" + formatNumber(perToken, 9) +
                                           ") than experts (" + formatNumber(experts, 9) + ")");
        // Tencent's HunYuanMLP: experts and the shared MLP are moe_intermediate_size wide
        // where the file gives it (the shared one x num_shared_expert), else intermediate_size;
        // transformers' hunyuan_v1_moe always has one shared MLP of intermediate_size
        const double width = c.count({"intermediate_size"}, true, m, nullptr);
        expertWidth = isSet(moeWidth) && moeWidth > 0 ? moeWidth : width;
        const bool transformersLayout = std::string_view(family.key) == "hunyuan_v1_moe" &&
                                        c.find({"use_mixed_mlp_moe"}) == nullptr;
        if (transformersLayout || c.flag("use_mixed_mlp_moe", false)) {
            shared = c.uniformCount("num_shared_expert", m.layers);
            shared = isSet(shared) ? shared : 1;
            sharedWidth = transformersLayout ? width : expertWidth;
        }
        m.sources["experts_per_token"] = "config.json: moe_topk";
        break;
    }
    case Family::Step3p5:
        // Step 3.5: routed experts of moe_intermediate_size (moe_top_k a token) and one shared
        // expert of share_expert_dim in the layers moe_layers_enum lists; a bias per expert in
        // the router where use_moe_router_bias says so
        if (!c.flag("use_moe", true)) {
            experts = 0;
            break;
        }
        experts = c.count({"moe_num_experts"}, true, m, "experts");
        perToken = c.count({"moe_top_k"}, true, m, "experts_per_token");
        expertWidth = c.count({"moe_intermediate_size"}, true, m, nullptr);
        if (perToken > experts)
            fail(c.pathOf("moe_top_k"), "more experts per token (" + formatNumber(perToken, 9) +
                                            ") than experts (" + formatNumber(experts, 9) + ")");
        // the shared expert's width under either name the loaders read
        sharedWidth = c.countOrZero("share_expert_dim", -1);
        if (sharedWidth < 0)
            sharedWidth = c.countOrZero("share_expert_dims", 0);
        shared = sharedWidth > 0 ? 1 : 0;
        routerBias = c.flag("use_moe_router_bias", false);
        for (const char *routing :
             {"moe_router_activation", "moe_router_scaling_factor", "norm_expert_weight",
              "need_fp32_gate", "moe_every_n_layer", "moe_layer_offset"})
            c.find({routing}); // how the router picks and scales: no size
        break;
    case Family::Jamba:
        experts = c.count({"num_experts"}, true, m, "experts");
        perToken = c.count({"num_experts_per_tok"}, true, m, "experts_per_token");
        expertWidth = c.count({"intermediate_size"}, true, m, nullptr);
        break;
    case Family::NemotronH:
        // Nemotron 3: MoE layers (E in the pattern) of squared-ReLU experts, a shared expert of
        // its own width, DeepSeek-V3's router with a score-correction bias per expert
        experts = c.count({"n_routed_experts"}, false, m, "experts");
        if (!isSet(experts)) {
            experts = 0;
            break;
        }
        perToken = c.count({"num_experts_per_tok"}, true, m, "experts_per_token");
        expertWidth = c.count({"moe_intermediate_size"}, true, m, nullptr);
        shared = c.countOrZero("n_shared_experts", 0);
        sharedWidth =
            shared > 0 ? c.count({"moe_shared_expert_intermediate_size"}, true, m, nullptr) : 0;
        routerBias = true;
        for (const char *routing :
             {"n_group", "topk_group", "norm_topk_prob", "routed_scaling_factor"})
            c.find({routing}); // how the router picks: no size
        break;
    default:
        break;
    }
    if (experts > 0 && perToken > experts)
        fail(c.pathOf("num_experts_per_tok"), "more experts per token (" +
                                                  formatNumber(perToken, 9) + ") than experts (" +
                                                  formatNumber(experts, 9) + ")");

    // The dense MLP width (every layer of a dense model; the dense layers of an MoE one).
    double denseWidth = kUnset;
    if (f == Family::Llama4)
        denseWidth = size({"intermediate_size_mlp"}, false, nullptr);
    else if (f != Family::Mixtral && f != Family::GptOss && f != Family::MiniMaxM2)
        denseWidth = c.count({"intermediate_size", "n_inner", "ffn_hidden_size"}, false, m,
                             experts > 0 ? nullptr : "intermediate_size");
    if (!isSet(denseWidth) && experts == 0) {
        if (family.gatedMlp)
            fail(c.pathOf("intermediate_size"), "missing: the config gives no intermediate_size");
        denseWidth = 4 * h; // GPT-2, GPT-J and Falcon: 4 x hidden when unset
        m.sources["intermediate_size"] = "4 x hidden_size (the architecture's default)";
    }
    m.tieEmbeddings = c.flag("tie_word_embeddings", family.tiedByDefault);
    m.maxContext = size({"max_position_embeddings", "n_positions", "n_ctx"}, false, "max_context");

    // Which layers are MoE.
    std::vector<LayerKind> layers(static_cast<std::size_t>(L));
    const bool qwenMoe = f == Family::Qwen3Moe || f == Family::Qwen3Next;
    const bool deepSeekMoe = f == Family::DeepSeek || f == Family::Glm4Moe;
    const std::set<double> mlpOnly =
        qwenMoe ? layerIndices(c, "mlp_only_layers", L) : std::set<double>();
    const double sparseStep = qwenMoe ? c.countOrZero("decoder_sparse_step", 1) : 1;
    const double firstDense = deepSeekMoe            ? c.countOrZero("first_k_dense_replace", 0)
                              : f == Family::Hunyuan ? c.countOrZero("moe_layer_num_skipped", 0)
                                                     : 0;
    const double moeFrequency = deepSeekMoe ? std::max(1.0, c.countOrZero("moe_layer_freq", 1)) : 1;
    const double interleave =
        f == Family::Llama4 ? size({"interleave_moe_layer_step"}, false, nullptr) : 1.0;
    // Jamba: layer i is MoE where i % expert_layer_period is its offset, attention where
    // i % attn_layer_period is that one's (the others are Mamba); JambaConfig's defaults
    const double expertPeriod =
        f == Family::Jamba ? std::max(1.0, c.countOrZero("expert_layer_period", 2)) : 1.0;
    const double expertOffset = f == Family::Jamba ? c.countOrZero("expert_layer_offset", 1) : 0.0;
    if (firstDense > L)
        fail(c.pathOf(f == Family::Hunyuan ? "moe_layer_num_skipped" : "first_k_dense_replace"),
             "more dense layers than layers");
    // Step 3.5: the MoE layers as a text of indices ("3,4,...,44", as Python's int() reads
    // each) or a list of them
    std::set<double> stepMoeLayers;
    if (f == Family::Step3p5 && experts > 0) {
        std::string where;
        const json *listed = c.find({"moe_layers_enum"}, &where);
        if (!listed)
            fail(c.pathOf("moe_layers_enum"),
                 "missing: Step 3.5 lists its mixture-of-experts layers in it (\"3,4,...\")");
        const auto layerIndex = [&](const std::string &item) {
            const std::size_t first = item.find_first_not_of(" \t");
            const std::size_t last = item.find_last_not_of(" \t");
            const std::string digits =
                first == std::string::npos ? std::string() : item.substr(first, last - first + 1);
            const bool whole = !digits.empty() && digits.size() <= 9 &&
                               digits.find_first_not_of("0123456789") == std::string::npos;
            const double index = whole ? std::stod(digits) : -1.0;
            if (!whole || index >= L)
                fail(where, "\"" + item.substr(0, 20) + "\" is no layer index from 0 to " +
                                formatNumber(L - 1, 9));
            stepMoeLayers.insert(index);
        };
        if (listed->is_string()) {
            const std::string text = listed->get<std::string>();
            std::size_t start = 0;
            while (start <= text.size()) {
                const std::size_t end = std::min(text.find(',', start), text.size());
                layerIndex(text.substr(start, end - start));
                start = end + 1;
            }
        } else if (listed->is_array()) {
            for (const json &item : *listed)
                layerIndex(item.is_number_integer() ? std::to_string(item.get<long long>())
                                                    : item.dump());
        } else {
            fail(where, "must be a comma-separated text or a list of layer indices");
        }
    }
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const double index = static_cast<double>(i);
        bool moe = experts > 0;
        if (f == Family::Qwen3Moe || f == Family::Qwen3Next)
            moe = moe && !mlpOnly.contains(index) && sparseStep > 0 &&
                  std::fmod(index + 1, sparseStep) == 0.0;
        if (f == Family::DeepSeek || f == Family::Glm4Moe)
            moe = moe && index >= firstDense && std::fmod(index, moeFrequency) == 0.0;
        if (f == Family::Hunyuan)
            moe = moe && index >= firstDense;
        if (f == Family::Llama4)
            moe = moe && std::fmod(index + 1, interleave) == 0.0;
        if (f == Family::Jamba)
            moe = moe && std::fmod(index, expertPeriod) == expertOffset;
        if (f == Family::Step3p5)
            moe = moe && stepMoeLayers.contains(index);
        layers[i].moe = moe;
    }
    const bool someDense =
        std::any_of(layers.begin(), layers.end(), [](const LayerKind &k) { return !k.moe; });
    if (someDense && !isSet(denseWidth))
        fail(c.pathOf("intermediate_size"),
             "missing: the config's dense layers need an intermediate_size");

    // Which layers attend how.
    double window = kUnset;
    const bool readsWindow = f == Family::Mistral || f == Family::Mixtral || f == Family::Qwen2 ||
                             f == Family::Qwen3 || f == Family::Qwen3Moe || f == Family::Gemma2 ||
                             f == Family::Gemma3 || f == Family::Gemma4 || f == Family::GptOss ||
                             f == Family::Cohere2 || f == Family::StarCoder2 ||
                             f == Family::Step3p5 || smolLm3 || standard;
    if (readsWindow)
        window = size({"sliding_window"}, false, "sliding_window");
    else if (f == Family::Phi3)
        c.find({"sliding_window"}); // Phi-3's 2,047 (mini 4k) is read and not applied, as before
    const bool qwenWindow = f == Family::Qwen2 || f == Family::Qwen3 || f == Family::Qwen3Moe;
    const bool qwenWindowOn = qwenWindow && c.flag("use_sliding_window", false);
    const double maxWindowLayers =
        qwenWindow ? c.countOrZero("max_window_layers", 0) : 0; // read: Qwen's window switch
    const bool readsLayerTypes =
        smolLm3 || standard || f == Family::GptOss || f == Family::Gemma2 || f == Family::Gemma3 ||
        f == Family::Gemma4 || f == Family::Cohere2 || f == Family::Qwen2 || f == Family::Qwen3 ||
        f == Family::Qwen3Moe || f == Family::Qwen3Next || f == Family::Step3p5;
    const json *types = readsLayerTypes ? c.list("layer_types") : nullptr;
    // Step 3.5's list goes on over its multi-token-prediction layers
    const double typedBeyond =
        f == Family::Step3p5 ? c.countOrZero("num_nextn_predict_layers", 0) : 0;
    if (types && static_cast<double>(types->size()) != L &&
        static_cast<double>(types->size()) != L + typedBeyond)
        fail(c.pathOf("layer_types"),
             "lists " + std::to_string(types->size()) + " layers but num_hidden_layers is " +
                 formatNumber(L, 9) +
                 (f == Family::Step3p5
                      ? " (with num_nextn_predict_layers: " + formatNumber(L + typedBeyond, 9) + ")"
                      : std::string()));
    if (f == Family::MiniMaxM2) {
        if (const json *list = c.list("attn_type_list")) {
            for (std::size_t i = 0; i < list->size(); ++i) {
                if ((*list)[i] != 1)
                    fail(c.pathOf("attn_type_list") + "/" + std::to_string(i),
                         "a lightning (linear) attention layer: MiniMax's hybrid layout is not "
                         "read for minimax_m2; only full softmax attention (1) is");
            }
        }
    }
    double chunk = kUnset;
    std::vector<double> noRope;
    if (f == Family::Llama4 || smolLm3) {
        if (f == Family::Llama4)
            chunk = size({"attention_chunk_size"}, false, nullptr);
        // SmolLM3's layers without RoPE (NoPE) differ in position encoding only: checked, not
        // sized
        if (const json *list = c.list("no_rope_layers")) {
            if (static_cast<double>(list->size()) != L)
                fail(c.pathOf("no_rope_layers"), "lists " + std::to_string(list->size()) +
                                                     " layers but num_hidden_layers is " +
                                                     formatNumber(L, 9));
            for (const json &item : *list) {
                if (!item.is_number_integer() || (item != 0 && item != 1))
                    fail(c.pathOf("no_rope_layers"), "must list 0 or 1 per layer");
                noRope.push_back(item.get<double>());
            }
        }
    }
    const double pattern = (f == Family::Gemma3 || f == Family::Gemma4)
                               ? c.countOrZero("sliding_window_pattern", 6)
                           : f == Family::Cohere2   ? c.countOrZero("sliding_window_pattern", 4)
                           : f == Family::Llama4    ? c.countOrZero("no_rope_layer_interval", 4)
                           : f == Family::Qwen3Next ? c.countOrZero("full_attention_interval", 4)
                                                    : 0;
    std::string hybrid; // Nemotron-H: M (Mamba-2), * (attention), - (MLP), one per layer
    if (f == Family::NemotronH) {
        std::string where;
        const json *kinds = c.find({"hybrid_override_pattern"}, &where);
        if (!kinds || !kinds->is_string())
            fail(c.pathOf("hybrid_override_pattern"),
                 "missing: Nemotron-H gives each layer's kind in it (M, *, -)");
        hybrid = kinds->get<std::string>();
        if (static_cast<double>(hybrid.size()) != L)
            fail(where, "has " + std::to_string(hybrid.size()) +
                            " layers but num_hidden_layers is " + formatNumber(L, 9));
        for (std::size_t i = 0; i < hybrid.size(); ++i)
            if (hybrid[i] != 'M' && hybrid[i] != '*' && hybrid[i] != '-' &&
                !(hybrid[i] == 'E' && experts > 0))
                fail(where, "layer " + std::to_string(i) + " is '" + hybrid.substr(i, 1) +
                                "': Mamba-2 (M), attention (*), MLP (-) and, with "
                                "n_routed_experts, mixture-of-experts (E) layers are read");
    }
    const double attentionPeriod =
        f == Family::Jamba ? std::max(1.0, c.countOrZero("attn_layer_period", 8)) : 1.0;
    const double attentionOffset = f == Family::Jamba ? c.countOrZero("attn_layer_offset", 4) : 0.0;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const double index = static_cast<double>(i);
        LayerKind &k = layers[i];
        if (f == Family::Jamba) {
            k.attention = std::fmod(index, attentionPeriod) == attentionOffset
                              ? AttentionKind::Full
                              : AttentionKind::Linear;
        } else if (!hybrid.empty()) {
            k.attention = hybrid[i] == 'M'   ? AttentionKind::Linear
                          : hybrid[i] == '*' ? AttentionKind::Full
                                             : AttentionKind::None;
            k.noMlp = hybrid[i] == 'M' || hybrid[i] == '*';
            k.moe = hybrid[i] == 'E';
        } else if (mla) {
            k.attention = AttentionKind::Latent;
        } else if (types) {
            const json &type = (*types)[i];
            const std::string name = type.is_string() ? type.get<std::string>() : std::string();
            if (name == "sliding_attention")
                k.attention = AttentionKind::Sliding;
            else if (name == "linear_attention" && f == Family::Qwen3Next)
                k.attention = AttentionKind::Linear;
            else if (name != "full_attention")
                fail(c.pathOf("layer_types") + "/" + std::to_string(i),
                     "unknown layer type " + type.dump().substr(0, 40));
        } else if (f == Family::Gemma2 || f == Family::GptOss) {
            k.attention = i % 2 == 0 ? AttentionKind::Sliding : AttentionKind::Full;
        } else if ((f == Family::Gemma3 || f == Family::Gemma4 || f == Family::Cohere2) &&
                   pattern > 0) {
            k.attention =
                std::fmod(index + 1, pattern) != 0.0 ? AttentionKind::Sliding : AttentionKind::Full;
        } else if (f == Family::Qwen3Next && pattern > 0) {
            k.attention =
                std::fmod(index + 1, pattern) == 0.0 ? AttentionKind::Full : AttentionKind::Linear;
        } else if (f == Family::Llama4 && isSet(chunk)) {
            const bool rope = noRope.empty() ? (pattern > 0 && std::fmod(index + 1, pattern) != 0.0)
                                             : noRope[i] != 0.0;
            if (rope) {
                k.attention = AttentionKind::Chunked;
                k.window = chunk;
            }
        } else if (f == Family::Mistral || f == Family::Mixtral || f == Family::StarCoder2 ||
                   (qwenWindowOn && index >= maxWindowLayers)) {
            k.attention = AttentionKind::Sliding;
        }
        if (k.attention == AttentionKind::Sliding) {
            if (!isSet(window)) {
                // Mistral v0.2+ and Mixtral write "sliding_window": null: no window at all
                k.attention = AttentionKind::Full;
                if (types)
                    fail(c.pathOf("sliding_window"),
                         "missing: layer_types has sliding layers but no window is given");
            } else {
                k.window = window;
            }
        }
    }
    const bool anyWindow = std::any_of(layers.begin(), layers.end(), [](const LayerKind &k) {
        return k.attention == AttentionKind::Sliding;
    });
    if (!anyWindow)
        m.sources.erase("sliding_window");
    if (anyWindow && isSet(m.maxContext) && window > m.maxContext)
        fail(c.pathOf("sliding_window"), "a window of " + formatNumber(window, 9) +
                                             " tokens is larger than the model's context (" +
                                             formatNumber(m.maxContext, 9) + ")");

    // Step 3.5: the layers of one attention type (attention_other_setting's, the sliding ones in
    // the published file) have their own query (and KV) heads, of the same size
    if (f == Family::Step3p5) {
        if (c.flag("sink", false))
            fail(c.pathOf("sink"), "attention sinks under step3p5 are not read");
        const std::string impl = c.text("att_impl_type");
        c.find({"att_impl_type"});
        if (!impl.empty() && impl != "GQA")
            fail(c.pathOf("att_impl_type"),
                 "\"" + impl.substr(0, 20) + "\": only grouped-query attention (GQA) is read");
        std::string where;
        const json *other = c.find({"attention_other_setting"}, &where);
        if (other && !other->is_object())
            fail(where, "must be an object");
        if (!types && (isSet(window) || (other && !other->empty())))
            fail(c.pathOf("layer_types"), "missing: which layers slide (and take "
                                          "attention_other_setting's heads) is given per layer");
        const auto otherCount = [&](const char *key, double fallback) {
            if (!other || !other->contains(key))
                return fallback;
            const json &v = (*other)[key];
            if (!v.is_number_integer() || v.get<double>() < 1 || v.get<double>() > 1e6)
                fail(where + "/" + key, "must be a positive whole number");
            return v.get<double>();
        };
        const double otherHeads = otherCount("num_attention_heads", H);
        const double otherKv = otherCount("num_attention_groups", m.kvHeads);
        if (otherCount("head_dim", hd) != hd)
            fail(where + "/head_dim", "a head size of its own on some layers is not read");
        if (otherKv > otherHeads)
            fail(where + "/num_attention_groups", "more KV heads than attention heads");
        AttentionKind otherKind = AttentionKind::Sliding;
        if (other && !other->empty()) {
            const auto type = other->find("attention_type");
            const std::string name =
                type != other->end() && type->is_string() ? type->get<std::string>() : "";
            if (name == "full_attention")
                otherKind = AttentionKind::Full;
            else if (name != "sliding_attention")
                fail(where + "/attention_type",
                     "must name the layer type its heads are for (sliding_attention or "
                     "full_attention)");
        }
        for (LayerKind &k : layers) {
            if (k.attention != otherKind)
                continue;
            if (otherHeads != H)
                k.queryHeads = otherHeads;
            if (otherKv != m.kvHeads)
                k.kvHeads = otherKv;
        }
        if (otherHeads != H && otherKind == AttentionKind::Sliding && anyWindow)
            m.notes["attention_heads"] =
                "the sliding-window layers have " + formatNumber(otherHeads, 9) +
                " query heads (attention_other_setting): counted in the parameters; their "
                "attention FLOP, over at most the window, are counted at " +
                formatNumber(H, 9);
        // the multi-token-prediction layers' types are checked like the rest
        if (types)
            for (std::size_t i = layers.size(); i < types->size(); ++i) {
                const json &type = (*types)[i];
                if (type != "full_attention" && type != "sliding_attention")
                    fail(c.pathOf("layer_types") + "/" + std::to_string(i),
                         "unknown layer type " + type.dump().substr(0, 40));
            }
    }

    // Gemma 4: the last layer is always global; global layers have their own head size and (with
    // K = V) their own KV heads; the last num_kv_shared_layers reuse earlier layers' KV.
    double plePerLayer = 0, pleModel = 0;
    const bool kEqualsV = f == Family::Gemma4 && c.flag("attention_k_eq_v", false);
    if (f == Family::Gemma4) {
        layers.back().attention = AttentionKind::Full;
        layers.back().window = kUnset;
        const double globalHeadDim = size({"global_head_dim"}, false, nullptr);
        const double globalKvHeads = c.count({"num_global_key_value_heads"}, false, m, nullptr);
        const double sharedLayers = c.countOrZero("num_kv_shared_layers", 0);
        const bool doubleWide = c.flag("use_double_wide_mlp", false);
        if (sharedLayers >= L)
            fail(c.pathOf("num_kv_shared_layers"), "every layer would share another's KV");
        if (isSet(globalKvHeads) && globalKvHeads > H)
            fail(c.pathOf("num_global_key_value_heads"), "more KV heads than attention heads");
        for (std::size_t i = 0; i < layers.size(); ++i) {
            LayerKind &k = layers[i];
            k.global = k.attention == AttentionKind::Full;
            if (k.global) {
                k.headDim = globalHeadDim;
                if (kEqualsV && isSet(globalKvHeads))
                    k.kvHeads = globalKvHeads;
            }
            if (static_cast<double>(i) >= L - sharedLayers) {
                k.attention = AttentionKind::Shared; // attends with an earlier layer's cache
                k.window = kUnset;
                k.mlpScale = doubleWide ? 2 : 1;
            }
        }
        // per-layer input embeddings (E2B, E4B): a table of layers x width per token, its
        // projection from the hidden state, and a gate and projection in every layer
        const double pleWidth = c.countOrZero("hidden_size_per_layer_input", 256);
        if (pleWidth > 0) {
            const double pleVocab = c.countOrZero("vocab_size_per_layer_input", 262144);
            pleModel = pleVocab * L * pleWidth + h * L * pleWidth + pleWidth;
            plePerLayer = 2 * h * pleWidth + h;
        }
    }

    // Linear attention (Qwen3-Next's Gated DeltaNet): a fixed state per sequence and layer.
    double linearParameters = 0, stateBytes = 0;
    // the recurrent state's bytes per element: the width the file declares (Qwen3.5's
    // mamba_ssm_dtype float32 is twice BF16; issue #44), else BF16 as engines keep it by default
    const auto stateWidth = [&c, &m]() {
        std::string where;
        const json *dtype =
            c.find({"mamba_ssm_dtype", "mamba_ssm_cache_dtype", "ssm_state_dtype"}, &where);
        if (!dtype)
            return 2.0;
        const std::string name = dtype->is_string() ? dtype->get<std::string>() : "";
        if (name == "auto") // the model's own type: its weights' BF16
            return 2.0;
        if (name != "float32" && name != "bfloat16" && name != "float16")
            fail(where, "\"" + name.substr(0, 20) +
                            "\": the recurrent state's type must be float32, bfloat16 or float16");
        m.sources["state_dtype"] = "config.json: " + where.substr(1) + " (" + name + ")";
        return name == "float32" ? 4.0 : 2.0;
    };
    if (f == Family::NemotronH) {
        // a Mamba-2 mixer (transformers' NemotronHMamba2Mixer): in_proj to x, z, B, C and dt;
        // a depthwise conv over x, B and C; dt_bias, A_log and D per head; a gated RMSNorm;
        // out_proj. Its state per sequence: the conv's last kernel - 1 inputs and the SSM state
        // (heads x head_dim x state size)
        const double heads = c.count({"mamba_num_heads"}, true, m, nullptr);
        const double headDim = c.count({"mamba_head_dim"}, true, m, nullptr);
        const double groups = c.count({"n_groups"}, true, m, nullptr);
        const double stateSize = c.count({"ssm_state_size"}, true, m, nullptr);
        const double kernel = c.count({"conv_kernel"}, true, m, nullptr);
        // the heads size the mixer; expand (written into every file, 2) is not read by it: a
        // pruned model (Nano 9B v2: 4,480 wide, 128 heads of 80) has heads x head_dim != 2h
        const double inner = heads * headDim;
        c.find({"expand"});
        const double convWidth = inner + 2 * groups * stateSize;
        const double projected = 2 * inner + 2 * groups * stateSize + heads;
        // transformers' mixer gives in_proj and out_proj a bias where use_bias is set;
        // mamba_proj_bias is written but not read by it
        const bool projectionBias = c.flag("use_bias", false);
        c.find({"mamba_proj_bias"});
        linearParameters = h * projected + (projectionBias ? projected + h : 0) +
                           convWidth * kernel + (c.flag("use_conv_bias", true) ? convWidth : 0) +
                           3 * heads + inner + inner * h;
        stateBytes = (kernel - 1) * convWidth * 2.0 + heads * headDim * stateSize * stateWidth();
        c.find({"use_mamba_kernels"}); // a kernel choice: no size
        c.find({"mamba_hidden_act"});
        c.find({"chunk_size"}); // the scan's chunk during prefill: no size
    } else if (f == Family::Jamba) {
        // a Mamba (1) mixer (transformers' JambaMambaMixer): in_proj to x and z, a depthwise
        // conv over x, x_proj to dt, B and C, dt_proj back (with bias), A_log and D, out_proj,
        // and RMS norms on dt, B and C; its state per sequence: the conv's last kernel - 1
        // inputs and the SSM state (inner x state size)
        const double expand = c.count({"mamba_expand"}, true, m, nullptr);
        const double stateSize = c.count({"mamba_d_state"}, true, m, nullptr);
        const double kernel = c.count({"mamba_d_conv"}, true, m, nullptr);
        std::string rankAt;
        const json *rankField = c.find({"mamba_dt_rank"}, &rankAt);
        double rank = std::ceil(h / 16.0); // "auto", JambaConfig's default
        if (rankField && rankField->is_number())
            rank = rankField->get<double>();
        else if (rankField && *rankField != "auto")
            fail(rankAt, "must be a whole number or \"auto\"");
        const double inner = expand * h;
        const bool projectionBias = c.flag("mamba_proj_bias", false);
        const bool innerNorms = c.flag("mamba_inner_layernorms", true);
        linearParameters = h * 2 * inner + (projectionBias ? 2 * inner + h : 0) + inner * kernel +
                           (c.flag("mamba_conv_bias", true) ? inner : 0) +
                           inner * (rank + 2 * stateSize) + rank * inner + inner +
                           inner * stateSize + inner + inner * h +
                           (innerNorms ? rank + 2 * stateSize : 0);
        stateBytes = (kernel - 1) * inner * 2.0 + inner * stateSize * stateWidth();
        for (const char *read : {"use_mamba_kernels", "expert_layer_period", "expert_layer_offset",
                                 "attn_layer_period", "attn_layer_offset"})
            c.find({read}); // a kernel choice; the pattern's keys, read above
    } else if (std::any_of(layers.begin(), layers.end(), [](const LayerKind &k) {
                   return k.attention == AttentionKind::Linear;
               })) {
        const double kHeads = c.count({"linear_num_key_heads"}, true, m, nullptr);
        const double vHeads = c.count({"linear_num_value_heads"}, true, m, nullptr);
        const double kDim = c.count({"linear_key_head_dim"}, true, m, nullptr);
        const double vDim = c.count({"linear_value_head_dim"}, true, m, nullptr);
        const double kernel = c.count({"linear_conv_kernel_dim"}, true, m, nullptr);
        const double keyWidth = kHeads * kDim;
        const double valueWidth = vHeads * vDim;
        const double convWidth = 2 * keyWidth + valueWidth;
        linearParameters = h * (2 * keyWidth + 2 * valueWidth) // q, k, v and the output gate z
                           + h * 2 * vHeads                    // beta and alpha
                           + convWidth * kernel                // causal conv, no bias
                           + 2 * vHeads                        // dt_bias, A_log
                           + vDim                              // gated RMSNorm
                           + valueWidth * h;                   // output projection
        // the recurrent state (a k x v matrix per value head) at the width the file declares
        // (Qwen3.5: mamba_ssm_dtype float32, twice BF16; issue #44), else BF16 as engines keep
        // it by default; the conv's last kernel - 1 inputs at the weights' BF16
        stateBytes = vHeads * kDim * vDim * stateWidth() + (kernel - 1) * convWidth * 2.0;
    }

    // Parameter counting from the architecture, one layer kind at a time.
    const double V = m.vocabSize;
    const bool falconBias = f == Family::Falcon && c.flag("bias", false);
    // Qwen2's attention has its q, k and v biases whatever the file says (MiMo writes
    // attention_bias true beside them; transformers' Qwen2Attention never reads it)
    const bool attentionBias = c.flag("attention_bias", false) && f != Family::Qwen2;
    const bool allBias = (f == Family::StarCoder2 && c.flag("use_bias", true)) ||
                         (f == Family::InternLm2 && c.flag("bias", false));
    const bool mlpBias = c.flag("mlp_bias", false) || (f == Family::StarCoder2 && allBias);
    const bool gatedAttention = f == Family::Qwen3Next && c.flag("attn_output_gate", true);
    const bool qkNorm = f == Family::Qwen3 || f == Family::Qwen3Moe || f == Family::Qwen3Next ||
                        f == Family::Gemma3 ||
                        ((f == Family::Glm4Moe || f == Family::Hunyuan || f == Family::Step3p5) &&
                         c.flag("use_qk_norm", false));
    // MiniMax-M2's "per_layer" q/k norms, like OLMo 2's, span every head
    const bool wideQkNorm =
        f == Family::Olmo2 ||
        ((f == Family::Cohere || f == Family::MiniMaxM2) && c.flag("use_qk_norm", false));
    if (f == Family::MiniMaxM2) // betas that scale residuals: no weights
        for (const char *beta : {"layernorm_full_attention_beta", "layernorm_linear_attention_beta",
                                 "layernorm_mlp_beta"})
            c.find({beta});

    double softmaxAttention = h * qWidth * (gatedAttention ? 2 : 1) + 2 * h * kvWidth + qWidth * h;
    if (f == Family::Qwen2)
        softmaxAttention += qWidth + 2 * kvWidth; // q, k and v biases
    if (attentionBias || allBias)
        softmaxAttention += qWidth + 2 * kvWidth + (f == Family::Glm4Moe ? 0 : h);
    if (f == Family::Gpt2 || falconBias)
        softmaxAttention += qWidth + 2 * kvWidth + h;
    if (f == Family::GptOss)
        softmaxAttention += H; // one attention sink per head
    if (qkNorm)
        softmaxAttention += 2 * hd;
    if (wideQkNorm)
        softmaxAttention += qWidth + kvWidth;
    if (mla) {
        const double qHead = nopeDim + ropeDim;
        const double q = isSet(qLora) ? h * qLora + qLora + qLora * H * qHead : h * H * qHead;
        softmaxAttention = q + h * (kvLora + ropeDim) + kvLora + kvLora * H * (nopeDim + vHeadDim) +
                           H * vHeadDim * h;
        // the indexer: its queries from the q latent (wq_b), one key (wk) with a LayerNorm
        // (weight and bias), and a weight per head (weights_proj)
        if (indexHeads > 0)
            softmaxAttention += (isSet(qLora) ? qLora : h) * indexHeads * indexDim + h * indexDim +
                                2 * indexDim + h * indexHeads;
    }

    const double matrices = family.gatedMlp ? 3 : 2;
    double denseMlp = isSet(denseWidth) ? matrices * h * denseWidth : 0;
    if (f == Family::Gpt2 || f == Family::GptJ || falconBias || (mlpBias && !family.gatedMlp))
        denseMlp += denseWidth + h; // up and down biases
    else if (mlpBias)
        denseMlp += 2 * denseWidth + h;
    double expert = (f == Family::NemotronH ? 2 : 3) * h * expertWidth; // up (and gate), down
    double expertBiases = 0; // kept at 16 bits beside quantised expert matrices (gpt-oss)
    if (f == Family::GptOss)
        expertBiases = 2 * expertWidth + h; // gate_up and down biases
    expert += expertBiases;
    double router = h * experts + (routerBias ? experts : 0);
    double sharedMlp =
        shared * (f == Family::NemotronH ? 2 : 3) * h * sharedWidth + (sharedGate ? h : 0);
    if (f == Family::Gemma4 && experts > 0) {
        router += h + experts;        // the router's input scale and per-expert scale
        sharedMlp = denseMlp + 3 * h; // the dense MLP beside the experts, and three more norms
    }

    double norms = 2 * h; // RMSNorm weights before attention and before the MLP
    double finalNorm = h;
    if (f == Family::Gemma2 || f == Family::Gemma3 || f == Family::Gemma4 || f == Family::Gpt2 ||
        f == Family::StarCoder2 || f == Family::Nemotron)
        norms = 4 * h; // pre- and post- norms around both blocks, or LayerNorms with bias
    if (f == Family::Cohere || f == Family::Cohere2 || f == Family::NemotronH)
        norms = h; // one norm before the block (Cohere: its parallel attention and MLP)
    if (f == Family::GptJ || f == Family::Falcon) {
        const bool parallel = f == Family::GptJ || c.flag("parallel_attn", true);
        norms = (newFalcon || !parallel) ? 4 * h : 2 * h; // LayerNorms with bias
    }
    if (f == Family::Gpt2 || f == Family::GptJ || f == Family::Falcon || f == Family::StarCoder2 ||
        f == Family::Nemotron)
        finalNorm = 2 * h;

    double embeddings = V * h * (m.tieEmbeddings ? 1 : 2);
    if (f == Family::GptJ)
        embeddings += V; // lm_head bias
    if (f == Family::Gpt2) {
        if (!isSet(m.maxContext))
            fail("/n_positions", "missing: GPT-2 learns a position embedding per position");
        embeddings += m.maxContext * h; // learned position embeddings
    }

    // Gemma 4's attention differs by layer: q and o at the layer's head size, q/k norms, k (and
    // v unless K = V on global layers) only where the layer keeps its own KV
    const auto gemma4Attention = [&](const LayerKind &k) {
        const double dim = isSet(k.headDim) ? k.headDim : hd;
        const double kv = isSet(k.kvHeads) ? k.kvHeads : m.kvHeads;
        const bool ownKv = k.attention != AttentionKind::Shared;
        const double kvProjections = ownKv ? (kEqualsV && k.global ? 1 : 2) : 0;
        double p = 2 * h * H * dim + dim + (ownKv ? h * kv * dim * kvProjections + dim : 0);
        if (attentionBias)
            p += H * dim + kv * dim * kvProjections + h;
        return p;
    };
    // Step 3.5's attention: q and o at the layer's query heads, k and v at its KV heads, q/k
    // norms of a head's size, and a sigmoid gate per query head (g_proj, hidden x heads)
    const bool headGate = f == Family::Step3p5 && c.flag("use_head_wise_attn_gate", false);
    const auto stepAttention = [&](const LayerKind &k) {
        const double q = isSet(k.queryHeads) ? k.queryHeads : H;
        const double kv = isSet(k.kvHeads) ? k.kvHeads : m.kvHeads;
        return 2 * h * q * hd + 2 * h * kv * hd + (qkNorm ? 2 * hd : 0) + (headGate ? h * q : 0) +
               (attentionBias ? (q + 2 * kv) * hd : 0); // q, k and v biases (vLLM's qkv_bias)
    };
    double total = embeddings + finalNorm + pleModel;
    double active = total;
    double expertParameters = 0;
    // the weight parts a checkpoint may store apart (weightparts.h): per-layer embeddings are
    // tables like the embedding, norms and routers the small rest
    std::array<double, kWeightParts.size()> parts{};
    parts[index(WeightPart::Embeddings)] = embeddings + pleModel;
    parts[index(WeightPart::Other)] = finalNorm;
    for (const LayerKind &k : layers) {
        const double attention = k.attention == AttentionKind::Linear ? linearParameters
                                 : k.attention == AttentionKind::None ? 0.0
                                 : f == Family::Gemma4                ? gemma4Attention(k)
                                 : f == Family::Step3p5               ? stepAttention(k)
                                                                      : softmaxAttention;
        total += attention + norms + plePerLayer;
        active += attention + norms + plePerLayer;
        parts[index(WeightPart::Attention)] += attention;
        parts[index(WeightPart::Other)] += norms;
        parts[index(WeightPart::Embeddings)] += plePerLayer;
        if (k.moe) {
            total += experts * expert + sharedMlp + router;
            active += perToken * expert + sharedMlp + router;
            expertParameters += experts * expert;
            parts[index(WeightPart::Experts)] += experts * (expert - expertBiases);
            parts[index(WeightPart::Other)] += experts * expertBiases + router;
            parts[index(WeightPart::Mlp)] += sharedMlp;
        } else if (!k.noMlp) {
            total += denseMlp * k.mlpScale;
            active += denseMlp * k.mlpScale;
            parts[index(WeightPart::Mlp)] += denseMlp * k.mlpScale;
        }
    }
    m.partParameters = parts;
    m.parameters = total;
    if (active < total)
        m.activeParameters = active;
    m.sources["parameters"] = "computed from the architecture (" + std::string(family.key) +
                              " counting: embeddings, attention, " +
                              (family.gatedMlp ? "gated" : "plain") + " MLP" +
                              (experts > 0 ? ", experts and router" : "") + ", norms)";
    if (isSet(m.activeParameters))
        m.sources["active_parameters"] =
            "computed: every layer's attention and norms, the dense layers' MLP, " +
            formatNumber(perToken, 9) + " routed expert(s)" +
            (shared > 0 ? " + " + formatNumber(shared, 9) + " shared" : std::string()) +
            " and the router per MoE layer, plus the embedding and output matrices (this app's "
            "convention; some publishers leave the embeddings out)";
    if (m.parameters > 1e14 || m.parameters < 1e6)
        fail("", "the architecture gives " + formatNumber(m.parameters, 4) +
                     " parameters, outside 1e6 to 1e14");

    // Extra layers the count leaves out, said where the number is.
    const double mtp = std::max(c.countOrZero("num_nextn_predict_layers", 0),
                                c.countOrZero("mtp_num_hidden_layers", 0));
    std::string parameterNote;
    if (mtp > 0)
        parameterNote = "not counted: " + formatNumber(mtp, 3) +
                        " multi-token-prediction layer(s), used only for speculative decoding "
                        "(the publisher's headline count leaves them out too)";
    if (at.vision) {
        const json &vision = *at.vision;
        const auto field = [&](std::initializer_list<const char *> names) {
            for (const char *name : names) {
                auto it = vision.find(name);
                if (it != vision.end() && it->is_number() && it->get<double>() > 0 &&
                    it->get<double>() < 1e7)
                    return it->get<double>();
            }
            return 0.0;
        };
        const double vh = field({"hidden_size", "embed_dim", "width"});
        const double vl = field({"num_hidden_layers", "depth", "layers"});
        const double vi = field({"intermediate_size", "mlp_dim"});
        auto act = vision.find("hidden_act");
        const bool gated = act != vision.end() && act->is_string() &&
                           act->get<std::string>().find("silu") != std::string::npos;
        std::string visionNote = "language model only: the vision tower is not counted";
        if (vh > 0 && vl > 0) {
            // each layer: four attention projections and the MLP (SwiGLU where the activation
            // is SiLU, as in Pixtral and Qwen2.5-VL); patch embedding and projector left out
            out.visionParameters =
                vl * (4 * vh * vh + (gated ? 3 : 2) * vh * (vi > 0 ? vi : 4 * vh));
            visionNote = "language model only: the vision tower (about " +
                         formatNumber(out.visionParameters / 1e9, 2) +
                         " B from vision_config) is not counted";
        }
        parameterNote += (parameterNote.empty() ? "" : "; ") + visionNote;
    }
    if (!at.unknownWrapper.empty())
        parameterNote +=
            (parameterNote.empty() ? "" : "; ") +
            std::string("read from text_config (model_type ") + family.key +
            "): the file's own model_type, " + at.unknownWrapper +
            ", is a wrapper this import does not know by name" +
            (at.outer->contains("audio_config") ? "; the audio tower (audio_config) is not counted"
                                                : "");
    if (!parameterNote.empty())
        m.notes["parameters"] = parameterNote;

    // The layers as groups of one kind each; the one-group (and Gemma 2 window) cases keep the
    // top-level fields every earlier scenario uses.
    std::vector<std::pair<LayerKind, double>> kinds;
    for (const LayerKind &k : layers) {
        auto it = std::find_if(kinds.begin(), kinds.end(),
                               [&](const auto &entry) { return entry.first == k; });
        if (it == kinds.end())
            kinds.push_back({k, 1});
        else
            ++it->second;
    }
    const bool uniformMlp = std::all_of(layers.begin(), layers.end(), [&](const LayerKind &k) {
        return k.moe == layers.front().moe;
    });
    const bool legacy = uniformMlp && !mla && f != Family::GptOss && f != Family::Gemma3 &&
                        f != Family::Gemma4 &&
                        std::all_of(kinds.begin(), kinds.end(), [](const auto &entry) {
                            return entry.first.attention == AttentionKind::Full ||
                                   entry.first.attention == AttentionKind::Sliding;
                        });
    if (experts > 0) {
        m.experts = experts;
        m.expertsPerToken = perToken;
    }
    m.intermediateSize = isSet(denseWidth) ? denseWidth : expertWidth;
    if (legacy) {
        if (anyWindow) {
            m.slidingWindow = window;
            const double windowed =
                static_cast<double>(std::count_if(layers.begin(), layers.end(), [](const auto &k) {
                    return k.attention == AttentionKind::Sliding;
                }));
            if (windowed < L) {
                m.slidingWindowLayers = windowed;
                m.sources["sliding_window_layers"] =
                    f == Family::Gemma2 ? "Gemma 2 alternates local and global attention layers"
                                        : "config.json: the layers the window applies to";
            }
        }
    } else {
        for (const auto &[k, count] : kinds) {
            LayerGroup g;
            g.layers = count;
            g.attention = k.attention;
            g.window = k.window;
            if (isSet(k.kvHeads) && k.kvHeads != m.kvHeads)
                g.kvHeads = k.kvHeads;
            if (isSet(k.headDim) && k.headDim != m.headDim)
                g.headDim = k.headDim;
            if (k.attention == AttentionKind::Latent) {
                g.latentDim = kvLora + ropeDim + indexDim; // the indexer's key beside the latent
                if (indexHeads > 0 && isSet(indexTopk)) {
                    g.topK = indexTopk;
                    g.indexDim = indexDim;
                }
            }
            if (k.attention == AttentionKind::Linear)
                g.stateBytes = stateBytes;
            if (k.moe) {
                g.mlp = MlpKind::Moe;
                g.experts = experts;
                g.expertsPerToken = perToken;
                g.expertIntermediateSize = expertWidth;
                if (shared > 0)
                    g.sharedExperts = shared;
            } else if (k.noMlp) {
                g.mlp = MlpKind::None;
            } else {
                g.intermediateSize = denseWidth * k.mlpScale;
            }
            m.layerGroups.push_back(g);
        }
        m.sources["layer_groups"] = "config.json: the per-layer attention and MLP pattern";
    }

    readQuantisation(c, out, total > 0 ? expertParameters / total : 0.0);
    if (indexHeads > 0)
        m.notes["layer_groups"] =
            "sparse attention (DSA): the cache holds each token's latent and the indexer's key "
            "of " +
            formatNumber(indexDim, 6) +
            " (both at the KV format's width; engines keep the key in FP8); a decode step reads "
            "the " +
            formatNumber(indexTopk, 9) +
            " latents the indexer picks and every token's key, and attends the picked ones only "
            "(the indexer's own scoring FLOP are left out)";
    for (const char *key : {"torch_dtype", "dtype"}) {
        const std::string dtype = c.text(key);
        if (!dtype.empty()) {
            out.torchDtypeBytes = dtype == "bfloat16" || dtype == "float16" ? 2.0
                                  : dtype == "float32"                      ? 4.0
                                                                            : kUnset;
            break;
        }
    }

    // The model must also be one a scenario accepts (layers up to 4,096, head_dim up to 1,024...).
    try {
        Diagnostics ignored;
        detail::readModelObject(detail::modelToJson(m), "", ignored, nullptr);
    } catch (const detail::ReadFailure &failure) {
        fail(failure.diagnostic.path,
             "the architecture is outside what a scenario accepts: " + failure.diagnostic.message);
    }

    if (at.vision)
        c.find({"vision_config"}); // estimated above, said in the note
    if (at.outer) {
        c.find({"text_config"});
        warnUnreadSizeKeys(*at.outer, "", c, family.key, out.warnings);
    }
    warnUnreadSizeKeys(*at.config, at.outer ? "/text_config" : "", c, family.key, out.warnings);
    if (standard)
        describeStandardDecoder(*at.config, at.unknownType, c, m, out.warnings);
    std::string name = c.text("_name_or_path");
    if (name.empty())
        name = (standard ? at.unknownType : std::string(family.key)) + " (" +
               formatNumber(m.parameters / 1e9, 3) +
               (standard ? "B, read as a standard decoder)" : "B, from config.json)");
    m.name = name.substr(0, 200);
    return out;
}

/** Where a bare Infinity, -Infinity or NaN stood: a string JSON can hold until the parse is
 *  done. */
constexpr std::string_view kPythonConstant = "\u0001python constant";

void replacePythonConstants(json &node)
{
    if (node.is_string() && node.get_ref<const std::string &>() == kPythonConstant)
        node = nullptr;
    else if (node.is_structured())
        for (json &child : node)
            replacePythonConstants(child);
}

/** A config.json as Python's json module writes it: JSON, except that a float field may hold
 *  Infinity, -Infinity or NaN (Nemotron-H's "time_step_limit": [0.0, Infinity]). Those read as
 *  null (an error at any field the import sizes from); everything else is parsed strictly. */
json parsePythonJson(std::string_view text)
{
    std::string cleaned;
    bool inString = false;
    bool escaped = false;
    bool replaced = false;
    std::vector<char> open; // the containers around the position: '{' or '['
    char previous = '\0';   // the last character outside strings and whitespace
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (ch == '\\')
                escaped = true;
            else if (ch == '"')
                inString = false;
            cleaned += ch;
            continue;
        }
        // only where a value goes (after ':', '[' or an array's ','): a key stays refused
        const bool value = previous == ':' || previous == '[' ||
                           (previous == ',' && !open.empty() && open.back() == '[');
        std::size_t length = 0;
        for (std::string_view token : {"-Infinity", "Infinity", "NaN"})
            if (value && length == 0 && text.substr(i).starts_with(token))
                length = token.size();
        if (length > 0) {
            cleaned += "\"\\u0001python constant\"";
            i += length - 1;
            replaced = true;
            previous = '"';
            continue;
        }
        if (ch == '"')
            inString = true;
        else if (ch == '{' || ch == '[')
            open.push_back(ch);
        else if ((ch == '}' || ch == ']') && !open.empty())
            open.pop_back();
        if (std::string_view(" \t\r\n").find(ch) == std::string_view::npos)
            previous = ch;
        cleaned += ch;
    }
    if (!replaced)
        return detail::parseStrict(text);
    try {
        json root = detail::parseStrict(cleaned);
        replacePythonConstants(root);
        return root;
    } catch (detail::ReadFailure &failure) {
        // the parser read the stand-in: say what the file holds (columns after a constant on
        // the same line count the stand-in's length)
        std::string &message = failure.diagnostic.message;
        const std::string standIn = "\"\\u0001python constant\"";
        for (std::size_t at = message.find(standIn); at != std::string::npos;
             at = message.find(standIn, at))
            message.replace(at, standIn.size(), "Infinity");
        throw;
    }
}

} // namespace

Result<HfImport> importHuggingFaceConfig(std::string_view configJson)
{
    try {
        // a Python constant reads as null: in a field the import sizes from, that is an error
        // naming the field; elsewhere nothing depends on it, so nothing is said
        return import(parsePythonJson(configJson));
    } catch (const detail::ReadFailure &failure) {
        return failure.diagnostic;
    } catch (const std::exception &error) {
        return Diagnostic{"", std::string("could not read the config: ") + error.what()};
    }
}

std::string modelToJson(const ModelSpec &model, int indent)
{
    return detail::modelToJson(model).dump(indent, ' ', false, json::error_handler_t::replace);
}

} // namespace core
