/*
 * Node and value bookkeeping of the structured SSA IR.
 */
#include "r600/sb/sb_region_ir.h"

#include "r600/sb/sb_block_cache.h"

#include <memory>
#include <new>

namespace sbcc::r600::sb::region {

void Value::RelPartsDeleter::operator()(RelParts *p) const { delete p; }

void Value::copy_rel_parts(const Value &o)
{
   if (this == &o)
      return;
   if (!o.rel_) {
      rel_.reset();
      return;
   }
   RelParts &p = rel_parts();
   p.addr = o.rel_->addr ? std::make_unique<Value>(*o.rel_->addr) : nullptr;
   p.mayuse = o.rel_->mayuse;
   p.maydef = o.rel_->maydef;
}

/* Nodes live as long as the shader and are never freed one by one, so
 * they come in blocks: one allocation per block instead of one per node
 * (the parser alone makes one per ALU instruction and group). */
void RegionShader::new_node_block()
{
   if (!node_blocks.empty())
      nodes_in_full_blocks += size_t(node_next - node_blocks.back());
   const size_t cap = node_block_capacity(node_blocks.size());
   node_blocks.reserve(node_blocks.size() + 1); /* no throw once the block is taken */
   node_blocks.push_back(static_cast<Node *>(block_cache_allocate(cap * sizeof(Node))));
   node_next = node_blocks.back();
   node_end = node_next + cap;
}

/* A list's storage is its own only past its inline room: it grows to
 * more than N, and only a release takes it back to N. */
template <typename T, unsigned N> static bool on_heap(const SmallVector<T, N> &l)
{
   return l.capacity() > N;
}

RegionShader::~RegionShader()
{
   for (size_t b = 0; b < node_blocks.size(); b++) {
      Node *block = node_blocks[b];
      const size_t cap = node_block_capacity(b);
      const size_t used = b + 1 == node_blocks.size() ? size_t(node_next - block) : cap;
      if (has_rel_parts) {
         std::destroy(block, block + used);
      } else {
         /* With no parts to free, a node owns heap storage only where a
          * list outgrew its inline room. */
         for (Node *n = block; n != block + used; n++)
            if (on_heap(n->children) || on_heap(n->dst) || on_heap(n->src))
               std::destroy_at(n);
      }
      block_cache_free(block, cap * sizeof(Node));
   }
}

Node *RegionShader::create_region(bool loop)
{
   Node *r = create(NodeKind::Region);
   r->loop = loop;
   if (!region_data)
      region_data.emplace();
   r->region_data = &region_data->emplace_back();
   r->id = unsigned(regions.size());
   regions.push_back(r);
   return r;
}

/* A shader's variables: most need no more, so the list is not grown
 * from one entry by doubling (and copied each time). */
constexpr size_t kFirstVars = 256;

/* Out of line, so that var_id's inline table read does not pay on every
 * call for saving the registers the rest needs. */
[[gnu::noinline]] int RegionShader::var_id_slow(VarKind kind, unsigned index, unsigned chan)
{
   if (vars.capacity() == 0)
      vars.reserve(kFirstVars);
   if (kind == VarKind::Gpr && index < kFastGprs && chan < 4) {
      if (gpr_var.empty())
         gpr_var.assign(kFastGprs * 4, -1);
      int &slot = gpr_var[index * 4 + chan];
      if (slot < 0) {
         vars.push_back(Var{kind, index, chan});
         slot = int(vars.size() - 1);
      }
      return slot;
   }
   /* Temporaries are created with index = vars.size(), so a temporary's
    * id is its index: no tree entry needed to create or find one. */
   if (kind == VarKind::Temp && chan == 0) {
      if (index == vars.size()) {
         vars.push_back(Var{kind, index, chan});
         return int(index);
      }
      if (index < vars.size() && vars[index].kind == VarKind::Temp && vars[index].index == index)
         return int(index);
   }
   static_assert(unsigned(VarKind::ExecMask) == 4 && unsigned(VarKind::AddrReg) == 1);
   if (kind >= VarKind::AddrReg && kind <= VarKind::ExecMask && index == 0 && chan < 4) {
      unsigned &slot = special_var[(unsigned(kind) - 1) * 4 + chan];
      if (!slot) {
         vars.push_back(Var{kind, index, chan});
         slot = unsigned(vars.size());
      }
      return int(slot - 1);
   }
   auto key = std::make_tuple(int(kind), index, chan);
   auto it = var_map.find(key);
   if (it != var_map.end())
      return it->second;
   vars.push_back(Var{kind, index, chan});
   int id = int(vars.size() - 1);
   var_map.emplace(key, id);
   return id;
}

AluInstr *RegionShader::new_alu(AluOp op)
{
   if (!synth_alu)
      synth_alu.emplace();
   AluInstr &in = synth_alu->emplace_back();
   in.op = op;
   return &in;
}

Value RegionShader::new_temp()
{
   Value v;
   v.kind = ValueKind::Var;
   /* Temp variables are keyed by a fresh index so each is its own variable:
    * what var_id(VarKind::Temp, vars.size(), 0) does, without the lookup. */
   v.var = int(vars.size());
   vars.push_back(Var{VarKind::Temp, unsigned(v.var), 0});
   /* Temps come one at a time (ra_split makes them by the hundred): one
    * element on the end, not resize's general path per temp. */
   if (version_count.size() + 1 == vars.size()) {
      version_count.push_back(1);
      v.version = 1;
      return v;
   }
   if (version_count.size() < vars.size())
      version_count.resize(vars.size(), 0);
   v.version = ++version_count[v.var];
   return v;
}

void RegionShader::number_values()
{
   if (version_count.size() < vars.size())
      version_count.resize(vars.size(), 0);
   value_base.assign(vars.size(), 0);
   unsigned total = 0;
   for (size_t i = 0; i < vars.size(); i++) {
      value_base[i] = total;
      total += version_count[i] + 1;
   }
   value_total = total;
}

bool var_in_array(const RegionShader &sh, int var)
{
   const Var &v = sh.vars[var];
   if (v.kind != VarKind::Gpr)
      return false;
   for (const RelArray &a : sh.arrays)
      if (v.index >= a.first && v.index < a.first + a.count)
         return true;
   return false;
}

} // namespace sbcc::r600::sb::region
