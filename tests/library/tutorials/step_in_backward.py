# Each parameter gets its own optimizer, stepped by a hook the moment backward has
# written that parameter's gradient: no .grad has to wait for the whole pass to end.
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
optimizers = {p: torch.optim.Adam([p], foreach=False) for p in model.parameters()}


def step_now(parameter) -> None:
    optimizers[parameter].step()
    optimizers[parameter].zero_grad()


for parameter in model.parameters():
    parameter.register_post_accumulate_grad_hook(step_now)

inputs, targets = torch.randn(16, 4), torch.randn(16, 1)
for epoch in range(5):
    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    loss.backward()  # every optimizer steps inside this call
    print(epoch, f"{loss.item():.5f}")
print("gradients left after backward:", [p.grad for p in model.parameters()])
