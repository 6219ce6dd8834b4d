// SPDX-License-Identifier: GPL-3.0-or-later
#include "hfimport.h"

#include "jsonread.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace core {

namespace {

using detail::fail;
using detail::json;

enum class Family { Llama, Mistral, Mixtral, Qwen2, Gemma, Gemma2, Phi3, Falcon, Gpt2, GptJ };

struct FamilyInfo
{
    Family family;
    const char *key;
    bool gatedMlp;      ///< gate, up and down projections (3 matrices) or plain up/down (2)
    bool tiedByDefault; ///< the library's default for tie_word_embeddings
};

constexpr FamilyInfo kFamilies[] = {
    {Family::Llama, "llama", true, false},     {Family::Mistral, "mistral", true, false},
    {Family::Mixtral, "mixtral", true, false}, {Family::Qwen2, "qwen2", true, false},
    {Family::Gemma, "gemma", true, true},      {Family::Gemma2, "gemma2", true, true},
    {Family::Phi3, "phi3", true, false},       {Family::Falcon, "falcon", false, true},
    {Family::Gpt2, "gpt2", false, true},       {Family::GptJ, "gptj", false, false},
};

/** Reads config fields under any of their names, recording which name was used. */
class Config
{
public:
    explicit Config(const json &root)
        : m_root(root)
    {}

    const json *find(std::initializer_list<const char *> names, std::string *used = nullptr)
    {
        for (const char *name : names) {
            auto it = m_root.find(name);
            if (it != m_root.end() && !it->is_null()) {
                if (used)
                    *used = name;
                m_used.insert(name);
                return &*it;
            }
        }
        return nullptr;
    }

    /** The keys the import read (whether or not their value changed the model). */
    const std::set<std::string> &used() const { return m_used; }

    /** A positive whole number under one of `names`; kUnset when absent and optional. */
    double count(std::initializer_list<const char *> names, bool required, ModelSpec &model,
                 const char *field)
    {
        std::string used;
        const json *value = find(names, &used);
        if (!value) {
            if (required)
                fail("/" + std::string(*names.begin()),
                     "missing: the config gives no " + std::string(*names.begin()));
            return kUnset;
        }
        if (!value->is_number())
            fail("/" + used, "must be a number");
        const double number = value->get<double>();
        if (!std::isfinite(number) || number < 1 || number > 1e12 || std::floor(number) != number)
            fail("/" + used, "must be a positive whole number (got " + value->dump() + ")");
        model.sources[field] = "config.json: " + used;
        return number;
    }

    bool flag(const char *name, bool fallback)
    {
        auto it = m_root.find(name);
        if (it == m_root.end() || it->is_null())
            return fallback;
        m_used.insert(name);
        if (!it->is_boolean())
            fail("/" + std::string(name), "must be true or false");
        return it->get<bool>();
    }

    std::string text(const char *name) const
    {
        auto it = m_root.find(name);
        return it != m_root.end() && it->is_string() ? it->get<std::string>() : std::string();
    }

private:
    const json &m_root;
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
        {"chunk", "chunked attention holds at most a chunk of KV on some layers"},
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
void warnUnreadSizeKeys(const json &root, const Config &c, const char *family,
                        Diagnostics &warnings)
{
    for (auto it = root.begin(); it != root.end(); ++it) {
        if (c.used().contains(it.key()) || it->is_null() || *it == false)
            continue;
        if (const char *why = sizeChangingKey(it.key()))
            warnings.push_back(
                {"/" + it.key(), "not read by the " + std::string(family) +
                                     " import, yet it can change memory or speed (" + why +
                                     "): the estimate ignores it; check that the model_type "
                                     "matches the file"});
    }
}

const FamilyInfo &identify(const json &root)
{
    std::string type;
    if (auto it = root.find("model_type"); it != root.end() && it->is_string())
        type = it->get<std::string>();
    if (type == "RefinedWebModel" || type == "RefinedWeb")
        type = "falcon";
    if (type.empty())
        fail("/model_type", "missing: the config does not say which architecture it is");
    if (root.contains("kv_lora_rank") || root.contains("q_lora_rank"))
        fail("/model_type", "\"" + type.substr(0, 40) +
                                "\" uses multi-head latent attention (MLA): its KV cache is a "
                                "compressed latent, which this app does not model");
    for (const FamilyInfo &info : kFamilies) {
        if (type == info.key)
            return info;
    }
    std::string known;
    for (const FamilyInfo &info : kFamilies)
        known += (known.empty() ? "" : ", ") + std::string(info.key);
    fail("/model_type",
         "unknown architecture \"" + type.substr(0, 40) + "\" (supported: " + known + ")");
}

HfImport import(const json &root)
{
    if (!root.is_object())
        fail("", "a config.json must be a JSON object");
    const FamilyInfo &family = identify(root);
    Config c(root);
    HfImport out;
    out.family = family.key;
    ModelSpec &m = out.model;
    const Family f = family.family;

    m.layers = c.count({"num_hidden_layers", "n_layer", "num_layers"}, true, m, "layers");
    m.hiddenSize = c.count({"hidden_size", "n_embd", "n_embed", "d_model"}, true, m, "hidden_size");
    m.attentionHeads = c.count({"num_attention_heads", "n_head"}, true, m, "attention_heads");
    m.vocabSize = c.count({"vocab_size"}, true, m, "vocab_size");

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
        m.kvHeads = c.count({"num_key_value_heads", "num_kv_heads"}, false, m, "kv_heads");
        if (!isSet(m.kvHeads)) {
            m.kvHeads = m.attentionHeads;
            m.sources["kv_heads"] =
                "config.json: no num_key_value_heads, so every head has its own K and V";
        }
    }
    if (m.kvHeads > m.attentionHeads)
        fail("/num_key_value_heads", "more KV heads than attention heads");

    // An explicit head_dim wins over hidden / heads (Gemma 2: 256, not 3584 / 16 = 224).
    m.headDim = c.count({"head_dim"}, false, m, "head_dim");
    if (!isSet(m.headDim)) {
        m.headDim = m.hiddenSize / m.attentionHeads;
        if (std::floor(m.headDim) != m.headDim)
            fail("/hidden_size",
                 "hidden_size is not a multiple of the attention heads and no head_dim is given");
        m.sources["head_dim"] = "hidden_size / attention heads";
    }
    if (m.headDim > 1024)
        fail("/head_dim", "larger than 1,024");

    m.intermediateSize =
        c.count({"intermediate_size", "n_inner", "ffn_hidden_size"}, false, m, "intermediate_size");
    if (!isSet(m.intermediateSize)) {
        if (family.gatedMlp)
            fail("/intermediate_size", "missing: the config gives no intermediate_size");
        m.intermediateSize = 4 * m.hiddenSize; // GPT-2, GPT-J and Falcon: 4 x hidden when unset
        m.sources["intermediate_size"] = "4 x hidden_size (the architecture's default)";
    }
    m.tieEmbeddings = c.flag("tie_word_embeddings", family.tiedByDefault);
    m.maxContext =
        c.count({"max_position_embeddings", "n_positions", "n_ctx"}, false, m, "max_context");

    if (f == Family::Mixtral) {
        m.experts = c.count({"num_local_experts"}, true, m, "experts");
        m.expertsPerToken = c.count({"num_experts_per_tok"}, true, m, "experts_per_token");
        if (m.expertsPerToken > m.experts)
            fail("/num_experts_per_tok", "more experts per token than experts");
    }
    // Sliding windows: Mistral-style on every layer; Qwen2 only when use_sliding_window is on;
    // Gemma 2 alternates local (windowed) and global layers: half of them hold the window.
    const double window = c.count({"sliding_window"}, false, m, "sliding_window");
    c.flag("use_sliding_window", false); // read: Qwen2 switches its window off with it
    if (isSet(window)) {
        if (f == Family::Mistral || f == Family::Mixtral ||
            (f == Family::Qwen2 && c.flag("use_sliding_window", false))) {
            m.slidingWindow = window;
        } else if (f == Family::Gemma2) {
            m.slidingWindow = window;
            m.slidingWindowLayers = std::floor(m.layers / 2);
            m.sources["sliding_window_layers"] =
                "Gemma 2 alternates local and global attention layers";
        } else {
            m.sources.erase("sliding_window");
        }
    }

    // Parameter counting from the architecture.
    const double h = m.hiddenSize;
    const double L = m.layers;
    const double V = m.vocabSize;
    const double qWidth = m.attentionHeads * m.headDim;
    const double kvWidth = m.kvHeads * m.headDim;
    const double i = m.intermediateSize;
    const bool falconBias = f == Family::Falcon && c.flag("bias", false);

    double attention = h * qWidth + 2 * h * kvWidth + qWidth * h; // q, k, v (fused or not), o
    if (f == Family::Qwen2)
        attention += qWidth + 2 * kvWidth; // q, k and v biases
    if (f == Family::Gpt2 || falconBias)
        attention += qWidth + 2 * kvWidth + h;

    double expertMlp = (family.gatedMlp ? 3 : 2) * h * i;
    if (f == Family::Gpt2 || f == Family::GptJ || falconBias)
        expertMlp += i + h; // up and down biases
    double mlp = expertMlp;
    if (f == Family::Mixtral)
        mlp = m.experts * expertMlp + h * m.experts; // experts + router

    double norms = 2 * h; // RMSNorm weights before attention and before the MLP
    double finalNorm = h;
    if (f == Family::Gemma2)
        norms = 4 * h; // pre- and post- norms around both blocks
    if (f == Family::Gpt2)
        norms = 4 * h; // two LayerNorms with bias
    if (f == Family::GptJ || f == Family::Falcon) {
        const bool parallel = f == Family::GptJ || c.flag("parallel_attn", true);
        norms = (newFalcon || !parallel) ? 4 * h : 2 * h; // LayerNorms with bias
    }
    if (f == Family::Gpt2 || f == Family::GptJ || f == Family::Falcon)
        finalNorm = 2 * h;

    double embeddings = V * h * (m.tieEmbeddings ? 1 : 2);
    if (f == Family::GptJ)
        embeddings += V; // lm_head bias
    if (f == Family::Gpt2) {
        if (!isSet(m.maxContext))
            fail("/n_positions", "missing: GPT-2 learns a position embedding per position");
        embeddings += m.maxContext * h; // learned position embeddings
    }
    m.parameters = embeddings + L * (attention + mlp + norms) + finalNorm;
    if (f == Family::Mixtral)
        m.activeParameters = m.parameters - L * (m.experts - m.expertsPerToken) * expertMlp;
    m.sources["parameters"] = "computed from the architecture (" + std::string(family.key) +
                              " counting: embeddings, attention, " +
                              (family.gatedMlp ? "gated" : "plain") + " MLP, norms)";
    if (m.parameters > 1e14 || m.parameters < 1e6)
        fail("", "the architecture gives " + formatNumber(m.parameters, 4) +
                     " parameters, outside 1e6 to 1e14");

    // The model must also be one a scenario accepts (layers up to 4,096, head_dim up to 1,024...).
    try {
        Diagnostics ignored;
        detail::readModelObject(detail::modelToJson(m), "", ignored, nullptr);
    } catch (const detail::ReadFailure &failure) {
        fail(failure.diagnostic.path,
             "the architecture is outside what a scenario accepts: " + failure.diagnostic.message);
    }

    warnUnreadSizeKeys(root, c, family.key, out.warnings);
    std::string name = c.text("_name_or_path");
    if (name.empty())
        name = std::string(family.key) + " (" + formatNumber(m.parameters / 1e9, 3) +
               "B, from config.json)";
    m.name = name.substr(0, 200);
    return out;
}

} // namespace

Result<HfImport> importHuggingFaceConfig(std::string_view configJson)
{
    try {
        return import(detail::parseStrict(configJson));
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
